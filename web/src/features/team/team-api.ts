import type { AuditEntry, EditableChannel, TeamEditor } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (auth answers them).
export type { EditableChannel, TeamEditor };

const withTags = api.enhanceEndpoints({ addTagTypes: ['TeamEditors', 'EditableChannels', 'TeamActivity'] });

export const teamApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getEditors: build.query<TeamEditor[], void>({
      query: () => '/team/editors',
      transformResponse: (body: ApiSuccess<TeamEditor[]>) => dataOf(body),
      providesTags: ['TeamEditors'],
    }),
    inviteEditor: build.mutation<ApiSuccess<TeamEditor>, string>({
      query: (email) => ({ url: '/team/editors', method: 'POST', body: { email } }),
      invalidatesTags: ['TeamEditors', 'TeamActivity'],
    }),
    removeEditor: build.mutation<ApiSuccess<TeamEditor>, string>({
      query: (userId) => ({ url: `/team/editors/${encodeURIComponent(userId)}`, method: 'DELETE' }),
      invalidatesTags: ['TeamEditors', 'TeamActivity'],
    }),
    getEditableChannels: build.query<EditableChannel[], void>({
      query: () => '/team/channels',
      transformResponse: (body: ApiSuccess<EditableChannel[]>) => dataOf(body),
      providesTags: ['EditableChannels'],
    }),
    getTeamActivity: build.query<AuditEntry[], void>({
      query: () => '/team/activity',
      transformResponse: (body: ApiSuccess<AuditEntry[]>) => dataOf(body),
      providesTags: ['TeamActivity'],
    }),
  }),
});

export const {
  useGetEditorsQuery,
  useInviteEditorMutation,
  useRemoveEditorMutation,
  useGetEditableChannelsQuery,
  useGetTeamActivityQuery,
} = teamApi;
