import { z } from 'zod';
import {
  eventMessageDefaults,
  eventMessageKinds,
  templateVariablePattern,
  type EventMessageKind,
} from '@kickstand/api-contract';
import { truncateForChat } from '@kickstand/chat-language';
import type { TopicMessage } from '@kickstand/platform/bus';

/**
 * Kick's events the bot thanks for, pure: a kick.event body → what the thank-you needs (kick-api.md
 * §8.9, §8.10), a template filled in, and a burst of one kind made into one line. Bodies are read
 * leniently (a delivery is never refused for its shape; kick-link already checked the fields that
 * make each type what it is): a name that cannot be read is "Anonymous", a number 0.
 */

/** The kinds that are thanked (go-live and offline come from the stream's status instead). */
export type ThanksKind = Exclude<EventMessageKind, 'live' | 'offline'>;

/** One event waiting in its channel's batch. */
export interface PendingThanks {
  /** What makes a second delivery of it the same event: Kick's message id (a reward: its redemption id). */
  key: string;
  kind: ThanksKind;
  /** When it arrived (the batch window runs from its oldest event). */
  atMs: number;
  user: string;
  months: number;
  count: number;
  amount: number;
  reward: string;
}

/** Who did it when Kick does not say (an anonymous gift). */
export const anonymousName = 'Anonymous';

const lenient = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);
const number = lenient(
  z.union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ]),
);
const person = lenient(z.looseObject({ username: lenient(z.string()), is_anonymous: lenient(z.boolean()) }));
const followed = z.looseObject({ follower: person });
const subscribed = z.looseObject({ subscriber: person, duration: number });
const subsGifted = z.looseObject({ gifter: person, giftees: lenient(z.array(z.unknown())) });
const kicksGifted = z.looseObject({ sender: person, gift: lenient(z.looseObject({ amount: number })) });
const rewardRedeemed = z.looseObject({
  id: lenient(z.union([z.string(), z.number()])),
  redeemer: person,
  reward: lenient(z.looseObject({ title: lenient(z.string()) })),
  status: lenient(z.string()),
});

const nameOf = (who: z.infer<typeof person>): string =>
  who && !who.is_anonymous && who.username ? who.username : anonymousName;
const whole = (value: number | null | undefined): number =>
  value === null || value === undefined || !Number.isFinite(value) ? 0 : Math.max(0, Math.trunc(value));

function bodyOf(payloadJson: string): Record<string, unknown> | null {
  try {
    const body: unknown = JSON.parse(payloadJson);
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What a kick.event is thanked for; null for another type, a body that is no object, or a rejected reward. */
export function thanksOf(message: TopicMessage<'kick.event'>, atMs: number): PendingThanks | null {
  const body = bodyOf(message.payloadJson);
  if (!body) return null;
  const base = { key: message.kickMessageId || message.eventId, atMs, user: anonymousName, months: 0, count: 0 };
  const rest = { amount: 0, reward: '' };
  switch (message.eventType) {
    case 'channel.followed':
      return { ...base, ...rest, kind: 'follow', user: nameOf(followed.parse(body).follower) };
    case 'channel.subscription.new':
    case 'channel.subscription.renewal': {
      const event = subscribed.parse(body);
      const kind = message.eventType === 'channel.subscription.new' ? 'subscription' : 'renewal';
      return { ...base, ...rest, kind, user: nameOf(event.subscriber), months: whole(event.duration) };
    }
    case 'channel.subscription.gifts': {
      // no count field: one gift per giftee (§8.9)
      const event = subsGifted.parse(body);
      return { ...base, ...rest, kind: 'gifted-subs', user: nameOf(event.gifter), count: event.giftees?.length ?? 0 };
    }
    case 'kicks.gifted': {
      const event = kicksGifted.parse(body);
      return { ...base, ...rest, kind: 'kicks', user: nameOf(event.sender), amount: whole(event.gift?.amount) };
    }
    case 'channel.reward.redemption.updated': {
      const event = rewardRedeemed.parse(body);
      // Kick tells each status of one redemption (pending, then accepted or rejected): thanked once,
      // by the redemption's id, and not when the streamer rejected it
      if (event.status === 'rejected') return null;
      const key = event.id !== null && event.id !== undefined ? `reward:${String(event.id)}` : base.key;
      return {
        ...base,
        ...rest,
        key,
        kind: 'reward',
        user: nameOf(event.redeemer),
        reward: event.reward?.title ?? '',
      };
    }
    default:
      return null;
  }
}

/** Fills `{name}` with the values given; the templates were validated, so every name is known. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return truncateForChat(
    template.replace(templateVariablePattern, (whole, name: string) =>
      Object.hasOwn(values, name) ? String(values[name]) : whole,
    ),
  );
}

/** One line for a burst of one kind (not editable: one sensible sentence per kind, README). */
export function burstLine(kind: ThanksKind, events: readonly PendingThanks[]): string {
  const n = events.length;
  const sum = (pick: (event: PendingThanks) => number) => events.reduce((total, event) => total + pick(event), 0);
  switch (kind) {
    case 'follow':
      return `Thanks to ${n} new followers!`;
    case 'subscription':
      return `Thanks to ${n} new subscribers!`;
    case 'renewal':
      return `Thanks to ${n} subscribers for staying subscribed!`;
    case 'gifted-subs':
      return `Thanks for ${sum((event) => event.count)} gifted subs!`;
    case 'kicks':
      return `Thanks for ${sum((event) => event.amount)} Kicks!`;
    case 'reward':
      return `${n} rewards redeemed!`;
  }
}

export interface ThanksSetting {
  enabled: boolean;
  template: string;
}

/**
 * A channel's batch → its lines: one per kind, in the dashboard's order. One event is thanked with
 * the streamer's template; two or more of a kind with its burst line. A kind switched off since its
 * events arrived says nothing.
 */
export function batchLines(
  pending: readonly PendingThanks[],
  settingOf: (kind: ThanksKind) => ThanksSetting,
): { kind: ThanksKind; content: string }[] {
  const lines: { kind: ThanksKind; content: string }[] = [];
  for (const kind of eventMessageKinds) {
    if (kind === 'live' || kind === 'offline') continue;
    const events = pending.filter((event) => event.kind === kind);
    const setting = settingOf(kind);
    const [first] = events;
    if (!first || !setting.enabled) continue;
    const content =
      events.length === 1
        ? fillTemplate(setting.template, {
            user: first.user,
            months: first.months,
            count: first.count,
            amount: first.amount,
            reward: first.reward,
          })
        : burstLine(kind, events);
    lines.push({ kind, content });
  }
  return lines;
}

/** The default setting of a kind. */
export const defaultSetting = (kind: EventMessageKind): ThanksSetting => ({ ...eventMessageDefaults[kind] });
