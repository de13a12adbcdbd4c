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
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved, updateCachedData, dispatch }) {
        const socket = getSocket();
        const applyStatus = async (status: BotStatus) => {
          updateCachedData((draft) => {
            Object.assign(draft, status);
          });
          // a read already on its way (the one after Start Bot) may have been answered before this
          // change and land after it, putting the older status back: once it lands, read again
          await dispatch(botApi.endpoints.getBotStatus.initiate(undefined, { subscribe: false }));
          await dispatch(botApi.endpoints.getBotStatus.initiate(undefined, { subscribe: false, forceRefetch: true }));
        };
        const onStatus = (status: BotStatus) => void applyStatus(status);
        // a bot-status sent while the socket was not (yet, or no longer) connected never arrives:
        // the bot may have reached chat meanwhile, so each (re)connection reads the status again
        const onConnect = () => dispatch(botApi.util.invalidateTags(['BotStatus']));
        try {
          await cacheDataLoaded;
          socket.on('bot-status', onStatus);
          socket.on('connect', onConnect);
        } catch {
          // the entry went away before the first load finished: nothing to undo
        }
        await cacheEntryRemoved;
        socket.off('bot-status', onStatus);
        socket.off('connect', onConnect);
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
