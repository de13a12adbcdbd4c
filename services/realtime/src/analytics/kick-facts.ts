import { z } from 'zod';

/**
 * kick.event → what stream analytics counts, pure. Bodies are Kick's (kick-api.md §8.9, §8.10);
 * they are read leniently, as the live chat reads them (channel-events.ts): a field that cannot be
 * read gives "nothing to count" rather than an error, because a delivery is never refused for its
 * shape.
 */
export type KickFact =
  | { kind: 'follow' }
  | { kind: 'subscription' }
  | { kind: 'gifted-subscriptions'; count: number }
  | { kind: 'kicks'; amount: number }
  /** livestream.status.updated: one stream is identified by its started_at (Kick sends no stream id). */
  | { kind: 'stream-status'; startedAt: Date; isLive: boolean; endedAt: Date | null; title: string }
  /** livestream.metadata.updated: the title from then on (no time in the body: the message timestamp). */
  | { kind: 'title'; title: string };

const lenient = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);
const text = lenient(z.string());
const amount = lenient(
  z.union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ]),
);
const time = lenient(z.iso.datetime({ offset: true }).transform((value) => new Date(value)));

const subsGifted = z.looseObject({ giftees: lenient(z.array(z.unknown())) });
const kicksGifted = z.looseObject({ gift: lenient(z.looseObject({ amount })) });
const status = z.looseObject({ is_live: lenient(z.boolean()), title: text, started_at: time, ended_at: time });
const metadata = z.looseObject({ metadata: lenient(z.looseObject({ title: text })) });

function bodyOf(payloadJson: string): Record<string, unknown> | null {
  try {
    const body: unknown = JSON.parse(payloadJson);
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The fact a Kick event brings to the analytics, or null when it counts nothing. */
export function kickFactFrom(eventType: string, payloadJson: string): KickFact | null {
  const body = bodyOf(payloadJson);
  if (!body) return null;
  switch (eventType) {
    case 'channel.followed':
      return { kind: 'follow' };
    case 'channel.subscription.new':
    case 'channel.subscription.renewal':
      return { kind: 'subscription' };
    case 'channel.subscription.gifts': {
      // no count field: one gift per giftee (§8.9)
      const count = subsGifted.parse(body).giftees?.length ?? 0;
      return count > 0 ? { kind: 'gifted-subscriptions', count } : null;
    }
    case 'kicks.gifted': {
      const value = kicksGifted.parse(body).gift?.amount;
      if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return null;
      return { kind: 'kicks', amount: Math.trunc(value) };
    }
    case 'livestream.status.updated': {
      const event = status.parse(body);
      if (!event.started_at) return null;
      // an end without ended_at ends at the message's time (the caller's)
      const isLive = event.is_live !== false && !event.ended_at;
      const endedAt = isLive ? null : (event.ended_at ?? null);
      return { kind: 'stream-status', startedAt: event.started_at, isLive, endedAt, title: event.title ?? '' };
    }
    case 'livestream.metadata.updated': {
      const title = metadata.parse(body).metadata?.title;
      return title ? { kind: 'title', title } : null;
    }
    default:
      return null;
  }
}
