import type { DeadLetterCounts, DeliveryHealthList, OwnDeliveryHealth } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (kick-link answers them).
export type {
  DeliveryHealth,
  DeliveryHealthList,
  OwnDeliveryHealth,
  RefusalReason,
  ReplyCounts,
  SenderKind,
} from '@kickstand/api-contract';
export type DeadLetters = DeadLetterCounts;
/** The list's page, as the admin area asks for it (sent as the query the contract describes). */
export interface DeliveryHealthListParams {
  page: number;
  limit: number;
  unhealthy: boolean;
}

export const deliveryHealthApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOwnDeliveryHealth: build.query<OwnDeliveryHealth, void>({
      query: () => '/platform/kick/delivery-health',
      transformResponse: (body: ApiSuccess<OwnDeliveryHealth>) => dataOf(body),
    }),
    getDeliveryHealthList: build.query<DeliveryHealthList, DeliveryHealthListParams>({
      query: ({ page, limit, unhealthy }) =>
        `/admin/kick/delivery-health?${new URLSearchParams({
          page: String(page),
          limit: String(limit),
          unhealthy: String(unhealthy),
        }).toString()}`,
      transformResponse: (body: ApiSuccess<DeliveryHealthList>) => dataOf(body),
    }),
  }),
});

export const { useGetOwnDeliveryHealthQuery, useGetDeliveryHealthListQuery } = deliveryHealthApi;
