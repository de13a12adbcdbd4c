import { api, dataOf, type ApiSuccess } from '../../lib/api';

/** Who a reply was posted as (kick-link's delivery-health.ts). */
export type SenderKind = 'bot-account' | 'streamer-bot' | 'streamer-user';
export type RefusalReason = 'bad-signature' | 'stale-timestamp' | 'too-large';
export interface ReplyCounts {
  sent: number;
  failed: number;
  dropped: number;
}

export interface DeadLetters {
  count: number;
  lastAt: string | null;
  lastReason: string | null;
}

/** One channel's delivery health, as kick-link answers it (dates as ISO strings). */
export interface DeliveryHealth {
  broadcasterUserId: string;
  kickUsername: string;
  isBotRunning: boolean;
  isHealthy: boolean;
  /** Why it is unhealthy; empty when healthy. */
  problems: string[];
  subscriptions: {
    checkedAt: string;
    present: string[];
    missing: { event: string; reason: string }[];
    lastRecreatedAt: string | null;
    lastRecreatedEvents: string[];
    duplicatesRemoved: number;
  } | null;
  deliveries: { accepted: number; lastReceivedAt: string | null; lastSentAt: string | null; lastLagMs: number | null };
  live: { isLive: boolean; checkedAt: string } | null;
  refused: Record<RefusalReason, number>;
  deadLetters: DeadLetters;
  replies: Record<SenderKind, ReplyCounts>;
  lastReplyFailure: { at: string; sender: SenderKind; result: 'sent' | 'failed' | 'dropped'; error: string } | null;
  lastKickError: { at: string; message: string } | null;
  updatedAt: string | null;
}

/** GET /api/platform/kick/delivery-health. */
export interface OwnDeliveryHealth {
  hasKickAccount: boolean;
  health: DeliveryHealth | null;
}

export interface DeliveryHealthListParams {
  page: number;
  limit: number;
  unhealthy: boolean;
}

/** GET /api/admin/kick/delivery-health. */
export interface DeliveryHealthList {
  channels: DeliveryHealth[];
  pagination: { page: number; limit: number; total: number; pages: number };
  /** Refusals and dead letters that could not be put on a channel. */
  unattributed: { refused: Record<RefusalReason, number>; deadLetters: DeadLetters };
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
