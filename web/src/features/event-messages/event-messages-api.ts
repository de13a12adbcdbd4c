import type { EventMessage, EventMessagesBody, StreamStateView } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (bot-runner answers them).
export type { EventMessage, EventMessagesBody, StreamStateView };

/** The live card asks again this often: Kick's livestream events reach bot-runner, not the browser. */
export const streamPollMs = 15_000;

const withTags = api.enhanceEndpoints({ addTagTypes: ['EventMessages'] });

export const eventMessagesApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getEventMessages: build.query<EventMessage[], void>({
      query: () => '/event-messages',
      transformResponse: (body: ApiSuccess<EventMessage[]>) => dataOf(body),
      providesTags: ['EventMessages'],
    }),
    saveEventMessages: build.mutation<EventMessage[], EventMessagesBody>({
      query: (body) => ({ url: '/event-messages', method: 'PUT', body }),
      invalidatesTags: ['EventMessages'],
    }),
    getStream: build.query<StreamStateView, void>({
      query: () => '/stream',
      transformResponse: (body: ApiSuccess<StreamStateView>) => dataOf(body),
    }),
  }),
});

export const { useGetEventMessagesQuery, useSaveEventMessagesMutation, useGetStreamQuery } = eventMessagesApi;
