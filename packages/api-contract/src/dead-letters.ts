import { z } from 'zod';
import { dataReply, isoDateTime, limitQuery, pageQuery, paginationSchema } from './common';

// The dead letters of kick-link's webhook door, for super administrators.

export const deadLetterMessages = {
  notFound: 'Dead letter not found',
  replayed: 'Delivery replayed',
  discarded: 'Dead letter discarded',
  stillUnusable: 'The delivery still cannot be used',
} as const;

export const deadLetterListQuerySchema = z.object({ page: pageQuery(10_000), limit: limitQuery(100, 20) }).strict();
export type DeadLetterListParams = z.input<typeof deadLetterListQuerySchema>;

// message ids are ULIDs; anything printable up to 100 characters is looked up
export const deadLetterParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** A correctly signed Kick delivery that could not be used, as the admin panel shows it. */
export const deadLetterSchema = z
  .object({
    /** Kick-Event-Message-Id. */
    id: z.string(),
    eventType: z.string(),
    eventVersion: z.string(),
    /** The channel, when the body names one. */
    broadcasterUserId: z.string().nullable(),
    /** Why it could not be used, e.g. `unknown-type: channel.hype_train.started`. */
    reason: z.string(),
    receivedAt: isoDateTime(),
    /** Kick's timestamp header. */
    sentAt: isoDateTime(),
    /** When a replay last failed too, else null. */
    replayedAt: isoDateTime().nullable(),
    /** The Kick-Event-* headers as received. */
    headers: z.record(z.string(), z.string()),
    /** The body as received. */
    body: z.string(),
  })
  .meta({ title: 'DeadLetter' });
export type DeadLetter = z.infer<typeof deadLetterSchema>;

export const deadLetterPageSchema = z.object({ deadLetters: z.array(deadLetterSchema), pagination: paginationSchema });
export type DeadLetterPage = z.infer<typeof deadLetterPageSchema>;

export const replayResults = ['published', 'duplicate', 'unlinked'] as const;
export type ReplayResult = (typeof replayResults)[number];

export const deadLetterPageReplySchema = dataReply(deadLetterPageSchema);
export const replayReplySchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ result: z.enum(replayResults) }),
});
export const discardReplySchema = z.object({ success: z.literal(true), message: z.string() });
