import { z } from 'zod';
import { booleanQuery, dataReply, isoDateTime, limitQuery, pageQuery, paginationSchema } from './common';
import { senderKinds } from './kick';

// Delivery health (kick-link): the streamer's own channel, and every channel for super administrators.

export const maxHealthPageSize = 100;

export const refusalReasons = ['bad-signature', 'stale-timestamp', 'too-large'] as const;
export type RefusalReason = (typeof refusalReasons)[number];
export const replyResults = ['sent', 'failed', 'dropped'] as const;
export type ReplyResult = (typeof replyResults)[number];

export const healthListQuerySchema = z
  .object({
    page: pageQuery(),
    limit: limitQuery(maxHealthPageSize, 25),
    unhealthy: booleanQuery('unhealthy').default(false),
  })
  .strict();
/** What the SPA puts in the query string. */
export type HealthListParams = z.input<typeof healthListQuerySchema>;

const counts = <const T extends readonly [string, ...string[]]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as { [K in T[number]]: z.ZodNumber });

export const replyCountsSchema = counts(replyResults);
export type ReplyCounts = z.infer<typeof replyCountsSchema>;
const refusedSchema = counts(refusalReasons);

export const deadLetterCountsSchema = z.object({
  count: z.number().int(),
  lastAt: isoDateTime().nullable(),
  lastReason: z.string().nullable(),
});
export type DeadLetterCounts = z.infer<typeof deadLetterCountsSchema>;

/** One channel's delivery health as the dashboard and the admin area show it. */
export const deliveryHealthSchema = z
  .object({
    broadcasterUserId: z.string(),
    kickUsername: z.string(),
    isBotRunning: z.boolean(),
    isHealthy: z.boolean(),
    /** Why it is unhealthy, in a streamer's words; empty when healthy. */
    problems: z.array(z.string()),
    subscriptions: z
      .object({
        checkedAt: isoDateTime(),
        present: z.array(z.string()),
        missing: z.array(z.object({ event: z.string(), reason: z.string() })),
        lastRecreatedAt: isoDateTime().nullable(),
        lastRecreatedEvents: z.array(z.string()),
        duplicatesRemoved: z.number().int(),
      })
      .nullable(),
    deliveries: z.object({
      accepted: z.number().int(),
      lastReceivedAt: isoDateTime().nullable(),
      lastSentAt: isoDateTime().nullable(),
      lastLagMs: z.number().nullable(),
    }),
    live: z.object({ isLive: z.boolean(), checkedAt: isoDateTime() }).nullable(),
    refused: refusedSchema,
    deadLetters: deadLetterCountsSchema,
    replies: z.object({
      'bot-account': replyCountsSchema,
      'streamer-bot': replyCountsSchema,
      'streamer-user': replyCountsSchema,
    } satisfies Record<(typeof senderKinds)[number], typeof replyCountsSchema>),
    lastReplyFailure: z
      .object({ at: isoDateTime(), sender: z.enum(senderKinds), result: z.enum(replyResults), error: z.string() })
      .nullable(),
    lastKickError: z.object({ at: isoDateTime(), message: z.string() }).nullable(),
    updatedAt: isoDateTime().nullable(),
  })
  .meta({ title: 'DeliveryHealth' });
export type DeliveryHealth = z.infer<typeof deliveryHealthSchema>;

/** Refusals and dead letters that could not be put on a channel. */
export const unattributedHealthSchema = z.object({ refused: refusedSchema, deadLetters: deadLetterCountsSchema });
export type UnattributedHealth = z.infer<typeof unattributedHealthSchema>;

/** GET /api/platform/kick/delivery-health. */
export const ownDeliveryHealthSchema = z.object({
  hasKickAccount: z.boolean(),
  health: deliveryHealthSchema.nullable(),
});
export type OwnDeliveryHealth = z.infer<typeof ownDeliveryHealthSchema>;

/** GET /api/admin/kick/delivery-health. */
export const deliveryHealthListSchema = z.object({
  channels: z.array(deliveryHealthSchema),
  pagination: paginationSchema,
  unattributed: unattributedHealthSchema,
});
export type DeliveryHealthList = z.infer<typeof deliveryHealthListSchema>;

export const ownDeliveryHealthReplySchema = dataReply(ownDeliveryHealthSchema);
export const deliveryHealthListReplySchema = dataReply(deliveryHealthListSchema);
