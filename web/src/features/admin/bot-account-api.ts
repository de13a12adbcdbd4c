import type { BotAccount } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

/** The platform's bot account as kick-link shows it (GET /api/admin/bot-account): the HTTP contract's. */
export type { BotAccount };

export const botAccountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBotAccount: build.query<BotAccount | null, void>({
      query: () => '/admin/bot-account',
      transformResponse: (body: ApiSuccess<{ botAccount: BotAccount | null }>) => dataOf(body).botAccount,
      providesTags: ['BotAccount'],
    }),
    /** Answers Kick's authorization URL; the admin's browser is sent there. */
    linkBotAccount: build.mutation<{ authUrl: string }, void>({
      query: () => ({ url: '/admin/bot-account/link', method: 'POST' }),
      transformResponse: (body: ApiSuccess<{ authUrl: string }>) => dataOf(body),
    }),
    unlinkBotAccount: build.mutation<void, void>({
      query: () => ({ url: '/admin/bot-account', method: 'DELETE' }),
      invalidatesTags: ['BotAccount'],
    }),
  }),
});

export const { useGetBotAccountQuery, useLinkBotAccountMutation, useUnlinkBotAccountMutation } = botAccountApi;
