import type { ModerationFilters, ModerationLogEntry, ModerationSettings } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (bot-runner answers them).
export type { ModerationFilters, ModerationLogEntry, ModerationSettings };

const withTags = api.enhanceEndpoints({ addTagTypes: ['ModerationFilters', 'ModerationLog'] });

export const moderationApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getModerationFilters: build.query<ModerationSettings, void>({
      query: () => '/moderation/filters',
      transformResponse: (body: ApiSuccess<ModerationSettings>) => dataOf(body),
      providesTags: ['ModerationFilters'],
    }),
    saveModerationFilters: build.mutation<ModerationSettings, ModerationFilters>({
      query: (body) => ({ url: '/moderation/filters', method: 'PUT', body }),
      transformResponse: (body: ApiSuccess<ModerationSettings>) => dataOf(body),
      invalidatesTags: ['ModerationFilters'],
    }),
    getModerationLog: build.query<ModerationLogEntry[], void>({
      query: () => '/moderation/log',
      transformResponse: (body: ApiSuccess<ModerationLogEntry[]>) => dataOf(body),
      providesTags: ['ModerationLog'],
    }),
    undoModeration: build.mutation<ModerationLogEntry, string>({
      query: (id) => ({ url: `/moderation/log/${encodeURIComponent(id)}/undo`, method: 'POST' }),
      invalidatesTags: ['ModerationLog'],
    }),
    /** The Kick link flow asking the moderation scopes too: answers where to send the browser. */
    grantModeration: build.mutation<{ authUrl: string }, void>({
      query: () => ({ url: '/platform/kick/link?moderation=true', method: 'POST' }),
      transformResponse: (body: ApiSuccess<{ authUrl: string }>) => dataOf(body),
    }),
  }),
});

export const {
  useGetModerationFiltersQuery,
  useSaveModerationFiltersMutation,
  useGetModerationLogQuery,
  useUndoModerationMutation,
  useGrantModerationMutation,
} = moderationApi;
