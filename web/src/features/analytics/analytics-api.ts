import type { AnalyticsRange, StreamAnalytics } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

/** The signed-in streamer's stream analytics (GET /api/analytics/stream). */
export const analyticsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStreamAnalytics: build.query<StreamAnalytics, AnalyticsRange>({
      query: (range) => `/analytics/stream?range=${encodeURIComponent(range)}`,
      transformResponse: (body: ApiSuccess<StreamAnalytics>) => dataOf(body),
    }),
  }),
});

export const { useGetStreamAnalyticsQuery } = analyticsApi;
