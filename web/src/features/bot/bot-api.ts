import { api, dataOf, type ApiSuccess } from '../../lib/api';
import { getSocket } from '../../lib/socket';
import type { BotStatus } from '../../lib/socket-events';

export type { BotStatus };

/** Bot status and controls (spec §7); the status query is kept current by the socket's bot-status events. */
export const botApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBotStatus: build.query<BotStatus, void>({
      query: () => '/platform/bot/status',
      transformResponse: (body: ApiSuccess<BotStatus>) => dataOf(body),
      providesTags: ['BotStatus'],
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved, updateCachedData }) {
        const socket = getSocket();
        const onStatus = (status: BotStatus) =>
          updateCachedData((draft) => {
            Object.assign(draft, status);
          });
        try {
          await cacheDataLoaded;
          socket.on('bot-status', onStatus);
        } catch {
          // the entry went away before the first load finished: nothing to undo
        }
        await cacheEntryRemoved;
        socket.off('bot-status', onStatus);
      },
    }),
    startBot: build.mutation<void, void>({
      query: () => ({ url: '/platform/bot/start', method: 'POST', body: {} }),
      invalidatesTags: ['BotStatus'],
    }),
    stopBot: build.mutation<void, void>({
      query: () => ({ url: '/platform/bot/stop', method: 'POST' }),
      invalidatesTags: ['BotStatus'],
    }),
  }),
});

export const { useGetBotStatusQuery, useStartBotMutation, useStopBotMutation } = botApi;
