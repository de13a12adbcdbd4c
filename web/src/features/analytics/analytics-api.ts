import type { AnalyticsRange, StreamAnalytics } from '@kickstand/api-contract';

/** The ranges of the admin's view across all channels. */
export type AllChannelsRange = Exclude<AnalyticsRange, 'last-stream'>;
import { api, dataOf, type ApiSuccess } from '../../lib/api';

/** The signed-in streamer's stream analytics (GET /api/analytics/stream). */
export const analyticsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStreamAnalytics: build.query<StreamAnalytics, AnalyticsRange>({
      query: (range) => `/analytics/stream?range=${encodeURIComponent(range)}`,
      transformResponse: (body: ApiSuccess<StreamAnalytics>) => dataOf(body),
    }),
    /** Every channel together (administrators: GET /api/admin/analytics/stream). */
    getAllChannelsAnalytics: build.query<StreamAnalytics, AllChannelsRange>({
      query: (range) => `/admin/analytics/stream?range=${encodeURIComponent(range)}`,
      transformResponse: (body: ApiSuccess<StreamAnalytics>) => dataOf(body),
    }),
  }),
});

export const { useGetStreamAnalyticsQuery, useGetAllChannelsAnalyticsQuery } = analyticsApi;
