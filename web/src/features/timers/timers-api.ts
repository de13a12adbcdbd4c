import type { Counter, Timer, TimerBody } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (bot-runner answers them).
export type { Counter, Timer, TimerBody };

const withTags = api.enhanceEndpoints({ addTagTypes: ['Timers', 'Counters'] });

export const timersApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getTimers: build.query<Timer[], void>({
      query: () => '/timers',
      transformResponse: (body: ApiSuccess<Timer[]>) => dataOf(body),
      providesTags: ['Timers'],
    }),
    addTimer: build.mutation<Timer, TimerBody>({
      query: (body) => ({ url: '/timers', method: 'POST', body }),
      invalidatesTags: ['Timers'],
    }),
    saveTimer: build.mutation<Timer, { id: string; body: TimerBody }>({
      query: ({ id, body }) => ({ url: `/timers/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['Timers'],
    }),
    toggleTimer: build.mutation<Timer, { id: string; enabled: boolean }>({
      query: ({ id, enabled }) => ({
        url: `/timers/${encodeURIComponent(id)}/toggle`,
        method: 'POST',
        body: { enabled },
      }),
      invalidatesTags: ['Timers'],
    }),
    deleteTimer: build.mutation<void, string>({
      query: (id) => ({ url: `/timers/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Timers'],
    }),
    getCounters: build.query<Counter[], void>({
      query: () => '/counters',
      transformResponse: (body: ApiSuccess<Counter[]>) => dataOf(body),
      providesTags: ['Counters'],
    }),
    setCounter: build.mutation<Counter, { name: string; value: number }>({
      query: ({ name, value }) => ({ url: `/counters/${encodeURIComponent(name)}`, method: 'PUT', body: { value } }),
      invalidatesTags: ['Counters'],
    }),
    resetCounter: build.mutation<Counter, string>({
      query: (name) => ({ url: `/counters/${encodeURIComponent(name)}/reset`, method: 'POST' }),
      invalidatesTags: ['Counters'],
    }),
    deleteCounter: build.mutation<void, string>({
      query: (name) => ({ url: `/counters/${encodeURIComponent(name)}`, method: 'DELETE' }),
      invalidatesTags: ['Counters'],
    }),
  }),
});

export const {
  useGetTimersQuery,
  useAddTimerMutation,
  useSaveTimerMutation,
  useToggleTimerMutation,
  useDeleteTimerMutation,
  useGetCountersQuery,
  useSetCounterMutation,
  useResetCounterMutation,
  useDeleteCounterMutation,
} = timersApi;
