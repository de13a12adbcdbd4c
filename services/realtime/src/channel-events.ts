import { z } from 'zod';
import type { TopicMessage } from '@kickstand/platform/bus';
import type { ChannelEventPayload } from '@kickstand/platform/socket-events';
import { isoOf } from './payloads';

type KickEvent = TopicMessage<'kick.event'>;

/**
 * kick.event → an event line of the live chat, pure. The body is Kick's, as kick-link received it
 * (kick-api.md §8.9, §8.10); kick-link checked what makes each type what it is, and real Kick's
 * drift (nulls, missing fields, numbers as strings) is read here as leniently: a field that
 * cannot be read is left empty rather than losing the line.
 */

/** Read leniently: whatever does not fit becomes null. */
const lenient = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);
const text = lenient(z.string());
const count = lenient(
  z.union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
  ]),
);
const person = lenient(z.looseObject({ username: text, is_anonymous: lenient(z.boolean()) }));
const time = lenient(z.iso.datetime({ offset: true }));

const kicksGifted = z.looseObject({
  sender: person,
  gift: lenient(z.looseObject({ amount: count, name: text, message: text })),
  created_at: time,
});
const rewardRedeemed = z.looseObject({
  redeemer: person,
  reward: lenient(z.looseObject({ title: text, cost: count })),
  user_input: text,
  status: text,
  redeemed_at: time,
});
const followed = z.looseObject({ follower: person });
const subscribed = z.looseObject({ subscriber: person, duration: count, created_at: time });
const subsGifted = z.looseObject({ gifter: person, giftees: lenient(z.array(z.unknown())), created_at: time });

/** The event types shown in the live chat. */
export const channelEventTypes = [
  'kicks.gifted',
  'channel.reward.redemption.updated',
  'channel.followed',
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
] as const;

const isShown = (type: string): type is (typeof channelEventTypes)[number] =>
  (channelEventTypes as readonly string[]).includes(type);

function bodyOf(message: KickEvent): unknown {
  try {
    return JSON.parse(message.payloadJson) as unknown;
  } catch {
    return undefined;
  }
}

/** A whole number ≥ 0, or null. */
const whole = (value: number | null | undefined): number | null =>
  value === null || value === undefined || !Number.isFinite(value) ? null : Math.max(0, Math.trunc(value));

/** The event line of a kick.event, or null when its type is not shown or its body is no object. */
export function channelEventFrom(message: KickEvent, now: Date): ChannelEventPayload | null {
  if (!isShown(message.eventType)) return null;
  const body = bodyOf(message);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  // Kick's own time when the body has one, else its timestamp header, else when it reached us
  const sentAt = isoOf(message.messageTimestamp ?? message.occurredAt, now);
  const base = (username: string | null | undefined, at: string | null | undefined) => ({
    id: `event:${message.kickMessageId || message.eventId}`,
    timestamp: at ? new Date(at).toISOString() : sentAt,
    username: username || null,
  });
  const nameOf = (who: z.infer<typeof person>) => (who?.is_anonymous ? null : who?.username);

  switch (message.eventType) {
    case 'kicks.gifted': {
      const event = kicksGifted.parse(body);
      return {
        ...base(nameOf(event.sender), event.created_at),
        kind: 'kicks-gifted',
        amount: whole(event.gift?.amount) ?? 0,
        giftName: event.gift?.name ?? '',
        message: event.gift?.message ?? '',
      };
    }
    case 'channel.reward.redemption.updated': {
      const event = rewardRedeemed.parse(body);
      return {
        ...base(nameOf(event.redeemer), event.redeemed_at),
        kind: 'reward-redeemed',
        reward: event.reward?.title ?? '',
        cost: whole(event.reward?.cost),
        input: event.user_input ?? '',
        status: event.status ?? '',
      };
    }
    case 'channel.followed': {
      const event = followed.parse(body);
      // no time in the body (§8.7): Kick's timestamp header
      return { ...base(nameOf(event.follower), null), kind: 'followed' };
    }
    case 'channel.subscription.new':
    case 'channel.subscription.renewal': {
      const event = subscribed.parse(body);
      return {
        // created_at of a renewal is when the subscription began (§8.9): the header's time instead
        ...base(nameOf(event.subscriber), null),
        kind: message.eventType === 'channel.subscription.new' ? 'subscribed' : 'resubscribed',
        months: whole(event.duration),
      };
    }
    case 'channel.subscription.gifts': {
      const event = subsGifted.parse(body);
      return {
        ...base(nameOf(event.gifter), event.created_at),
        kind: 'subs-gifted',
        count: event.giftees?.length ?? 0,
      };
    }
  }
}
