import { z } from 'zod';
import { dataReply, isoDateTime } from './common';

// GET /api/analytics/stream (realtime): the signed-in streamer's own channel, counted from the bus
// (chat.received, command.executed, kick.event). docs/analytics.md says what is counted and kept.

export const analyticsRanges = ['last-stream', '7d', '30d'] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];

export const analyticsRangeMessage = 'range must be one of last-stream, 7d, 30d';

export const streamAnalyticsQuerySchema = z
  .object({
    range: z.enum(analyticsRanges, { error: analyticsRangeMessage }).default('last-stream'),
  })
  .strict();
export type StreamAnalyticsQuery = z.infer<typeof streamAnalyticsQuerySchema>;

/** The admin's view across all channels: the day ranges (a "last stream" of every channel is none). */
export const allChannelsRanges = ['7d', '30d'] as const;
export const allChannelsRangeMessage = 'range must be one of 7d, 30d';

export const allChannelsAnalyticsQuerySchema = z
  .object({ range: z.enum(allChannelsRanges, { error: allChannelsRangeMessage }).default('7d') })
  .strict();

const count = () => z.number().int().min(0);

/** Point `i` of every series is the bucket starting at `from + i × stepSeconds`. */
export const analyticsSeriesSchema = z.object({
  messages: z.array(count()),
  commands: z.array(count()),
  follows: z.array(count()),
  subscriptions: z.array(count()),
  giftedSubscriptions: z.array(count()),
  kicks: z.array(count()),
});
export type AnalyticsSeries = z.infer<typeof analyticsSeriesSchema>;

export const streamAnalyticsSchema = z
  .object({
    range: z.enum(analyticsRanges),
    /** The window, start included, end excluded. */
    from: isoDateTime(),
    to: isoDateTime(),
    /** 60 (last stream), 3600 (7 days) or 86400 (30 days). */
    stepSeconds: z.number().int().positive(),
    /** The stream of `last-stream`; null for the day ranges, or when no stream was seen yet. */
    stream: z.object({ startedAt: isoDateTime(), endedAt: isoDateTime().nullable(), title: z.string() }).nullable(),
    totals: z.object({
      messages: count(),
      /** Distinct chatters; a lower bound when `isChattersCapped` (docs/analytics.md, limits). */
      uniqueChatters: count(),
      isChattersCapped: z.boolean(),
      commands: count(),
      follows: count(),
      subscriptions: count(),
      giftedSubscriptions: count(),
      kicks: count(),
    }),
    series: analyticsSeriesSchema,
    /** Most lines first (ties by name), at most 10. */
    topChatters: z.array(z.object({ username: z.string(), messages: count() })),
    /** Most answered first (ties by name), at most 10; names without the `$`. */
    topCommands: z.array(z.object({ command: z.string(), executions: count() })),
    /** Bursts: buckets well above the median, biggest first, with the stream's title at the time. */
    peaks: z.array(z.object({ at: isoDateTime(), messages: count(), title: z.string().nullable() })),
  })
  .meta({ title: 'StreamAnalytics' });
export type StreamAnalytics = z.infer<typeof streamAnalyticsSchema>;

export const streamAnalyticsReplySchema = dataReply(streamAnalyticsSchema);
