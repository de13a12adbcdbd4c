import { api, dataOf, type ApiSuccess } from '../../lib/api';

/** GET /api/platform/kick/status (spec §3). */
export interface KickStatus {
  hasKickAccount: boolean;
  kickAccount: {
    kickUsername: string;
    kickEmail: string | null;
    profilePicture: string | null;
    linkedAt: string;
  } | null;
}

/** GET /api/platform/kick/chat-sender: who the channel's replies are posted as (kick-link). */
export interface ChatSenderView {
  kind: 'bot-account' | 'streamer-bot' | 'streamer-user';
  kickUsername: string;
  /** Kick refused the app's bot here: replies go out as the streamer until botRetryAt. */
  isFallback: boolean;
  botRefusal: string;
  botRetryAt: string | null;
  lastError: string;
  lastErrorAt: string | null;
  botAccountUsername: string | null;
}

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
