import type { Clock } from '@kickstand/platform/clock';
import type { Chat } from './chat';
import type { KickUsers } from './kick-users';
import { createUlidFactory } from './ids';
import {
  anonymousUser,
  channelFollowedPayload,
  kicksGiftedPayload,
  rewardRedemptionPayload,
  type KicksGift,
  type RedemptionStatus,
  subscriptionGiftsPayload,
  subscriptionPayload,
  type PayloadParts,
} from './payloads';
import type { BadgeDoc, ChatMessageDoc, DeliveryDoc, KickUserDoc } from './repository';
import { RuleError } from './rules';
import type { Bans } from './bans';
import type { Emitter } from './webhooks/emitter';

export interface Emitted<T = undefined> {
  result: T;
  deliveries: DeliveryDoc[];
}

/** Adds calendar months in UTC (a subscription month is a calendar month). */
export function addMonths(date: Date, months: number): Date {
  const next = new Date(date.getTime());
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * What viewers do in a channel, triggered from the control API or the chat page: chat, follow,
 * subscribe, renew, gift. Each emits the event Kick would send, with Kick's payload.
 */
export interface ViewerEvents {
  chat(input: {
    broadcaster: KickUserDoc;
    sender: KickUserDoc;
    content: string;
    badges: BadgeDoc[];
    usernameColor?: string;
    replyToMessageId?: string;
  }): Promise<Emitted<ChatMessageDoc>>;
  follow(broadcaster: KickUserDoc, follower: KickUserDoc): Promise<Emitted>;
  subscribe(broadcaster: KickUserDoc, subscriber: KickUserDoc, duration: number): Promise<Emitted>;
  renew(broadcaster: KickUserDoc, subscriber: KickUserDoc, duration: number, startedAt?: Date): Promise<Emitted>;
  /** `gifter: null` is an anonymous gift. */
  gift(broadcaster: KickUserDoc, gifter: KickUserDoc | null, giftees: KickUserDoc[]): Promise<Emitted>;
  /** `kicks.gifted` (§8.10). */
  kicksGifted(broadcaster: KickUserDoc, sender: KickUserDoc, gift: KicksGift): Promise<Emitted>;
  /** `channel.reward.redemption.updated` (§8.10); without an id, a new redemption. */
  rewardRedemption(input: {
    broadcaster: KickUserDoc;
    redeemer: KickUserDoc;
    id?: string;
    status: RedemptionStatus;
    userInput: string;
    redeemedAt?: Date;
    reward: { id?: string; title: string; cost: number; description: string };
  }): Promise<Emitted<{ id: string; rewardId: string }>>;
  /** Any payload under any type name, to test how unknown events are handled. */
  raw(broadcaster: KickUserDoc, type: string, payload: unknown): Promise<Emitted>;
}

export function createViewerEvents(deps: {
  users: KickUsers;
  chat: Chat;
  bans: Bans;
  emitter: Emitter;
  parts: PayloadParts;
  clock: Clock;
}): ViewerEvents {
  const { users, chat, bans, emitter, parts, clock } = deps;
  const ulid = createUlidFactory();

  /** Remembers the months (for the subscriber badge) and keeps the channel's count in step. */
  async function recordSubscriber(broadcaster: KickUserDoc, subscriberId: number, months: number): Promise<void> {
    const current = (await users.byId(broadcaster.userId)) ?? broadcaster;
    const others = current.channel.subscribers.filter((entry) => entry.userId !== subscriberId);
    const isNew = others.length === current.channel.subscribers.length;
    await users.updateChannel(broadcaster.userId, {
      subscribers: [...others, { userId: subscriberId, months }],
      activeSubscribersCount: current.channel.activeSubscribersCount + (isNew ? 1 : 0),
    });
  }

  const emitFor = (broadcaster: KickUserDoc, type: string, payload: unknown) =>
    emitter.emit({ type, broadcasterUserId: broadcaster.userId, payload });

  return {
    async chat(input) {
      if (await bans.isBanned(input.broadcaster.userId, input.sender.userId)) {
        throw new RuleError(
          'sender-banned',
          `${input.sender.username} is banned in ${input.broadcaster.username}'s chat`,
        );
      }
      const { message, deliveries } = await chat.post({
        broadcaster: input.broadcaster,
        sender: input.sender,
        type: 'viewer',
        content: input.content,
        badges: input.badges,
        usernameColor: input.usernameColor ?? input.sender.usernameColor,
        replyToMessageId: input.replyToMessageId ?? null,
      });
      return { result: message, deliveries };
    },

    async follow(broadcaster, follower) {
      const payload = channelFollowedPayload({ broadcaster: parts.user(broadcaster), follower: parts.user(follower) });
      return { result: undefined, deliveries: await emitFor(broadcaster, 'channel.followed', payload) };
    },

    async subscribe(broadcaster, subscriber, duration) {
      const now = clock.now();
      await recordSubscriber(broadcaster, subscriber.userId, duration);
      const payload = subscriptionPayload({
        broadcaster: parts.user(broadcaster),
        subscriber: parts.user(subscriber),
        duration,
        createdAt: now,
        expiresAt: addMonths(now, duration),
      });
      return { result: undefined, deliveries: await emitFor(broadcaster, 'channel.subscription.new', payload) };
    },

    async renew(broadcaster, subscriber, duration, startedAt) {
      const now = clock.now();
      await recordSubscriber(broadcaster, subscriber.userId, duration);
      // created_at on a renewal is when the subscription first started (kick-api.md §8.9)
      const payload = subscriptionPayload({
        broadcaster: parts.user(broadcaster),
        subscriber: parts.user(subscriber),
        duration,
        createdAt: startedAt ?? addMonths(now, -(duration - 1)),
        expiresAt: addMonths(now, 1),
      });
      return { result: undefined, deliveries: await emitFor(broadcaster, 'channel.subscription.renewal', payload) };
    },

    async gift(broadcaster, gifter, giftees) {
      const now = clock.now();
      for (const giftee of giftees) await recordSubscriber(broadcaster, giftee.userId, 1);
      const payload = subscriptionGiftsPayload({
        broadcaster: parts.user(broadcaster),
        gifter: gifter ? parts.user(gifter) : anonymousUser,
        giftees: giftees.map((giftee) => parts.user(giftee)),
        createdAt: now,
        expiresAt: addMonths(now, 1),
      });
      return { result: undefined, deliveries: await emitFor(broadcaster, 'channel.subscription.gifts', payload) };
    },

    async kicksGifted(broadcaster, sender, gift) {
      const payload = kicksGiftedPayload({
        broadcaster: parts.user(broadcaster),
        sender: parts.user(sender),
        gift,
        createdAt: clock.now(),
      });
      return { result: undefined, deliveries: await emitFor(broadcaster, 'kicks.gifted', payload) };
    },

    async rewardRedemption(input) {
      const now = clock.now();
      const id = input.id ?? ulid(now.getTime());
      const rewardId = input.reward.id ?? ulid(now.getTime());
      const payload = rewardRedemptionPayload({
        id,
        userInput: input.userInput,
        status: input.status,
        redeemedAt: input.redeemedAt ?? now,
        reward: { ...input.reward, id: rewardId },
        redeemer: parts.user(input.redeemer),
        broadcaster: parts.user(input.broadcaster),
      });
      const deliveries = await emitFor(input.broadcaster, 'channel.reward.redemption.updated', payload);
      return { result: { id, rewardId }, deliveries };
    },

    async raw(broadcaster, type, payload) {
      return { result: undefined, deliveries: await emitFor(broadcaster, type, payload) };
    },
  };
}
