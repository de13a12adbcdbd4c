import type { KickStatus, ReplySender } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (kick-link answers them).
export type { KickStatus };
/** GET /api/platform/kick/chat-sender: who the channel's replies are posted as. */
export type ChatSenderView = ReplySender;

export const kickApi = api.injectEndpoints({
  endpoints: (build) => ({
    getKickStatus: build.query<KickStatus, void>({
      query: () => '/platform/kick/status',
      transformResponse: (body: ApiSuccess<KickStatus>) => dataOf(body),
      providesTags: ['KickStatus'],
    }),
    /** Answers the Kick authorization URL; the browser is sent there. */
    linkKick: build.mutation<{ authUrl: string }, void>({
      query: () => ({ url: '/platform/kick/link', method: 'POST' }),
      transformResponse: (body: ApiSuccess<{ authUrl: string }>) => dataOf(body),
    }),
    unlinkKick: build.mutation<void, void>({
      query: () => ({ url: '/platform/kick/unlink', method: 'DELETE' }),
      invalidatesTags: ['KickStatus', 'Profile', 'BotStatus', 'ChatSender'],
    }),
    getChatSender: build.query<ChatSenderView, void>({
      query: () => '/platform/kick/chat-sender',
      transformResponse: (body: ApiSuccess<ChatSenderView>) => dataOf(body),
      providesTags: ['ChatSender'],
    }),
  }),
});

export const { useGetKickStatusQuery, useLinkKickMutation, useUnlinkKickMutation, useGetChatSenderQuery } = kickApi;
