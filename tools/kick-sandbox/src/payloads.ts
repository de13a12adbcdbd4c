import { categoryById } from './categories';
import type { Emote } from './emotes';
import type { ImageUrls } from './images';
import type { BadgeDoc, KickUserDoc } from './repository';
import { rfc3339Seconds } from './time';

/** The eight event types the product uses (kick-api.md §8.9); all version 1. */
export const productEventTypes = [
  'chat.message.sent',
  'channel.followed',
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'livestream.status.updated',
  'livestream.metadata.updated',
  'moderation.banned',
] as const;

/** Every event type one can subscribe to (§8.9 and §8.10). */
export const subscribableEventTypes: readonly string[] = [
  ...productEventTypes,
  'kicks.gifted',
  'channel.reward.redemption.updated',
];

export type ProductEventType = (typeof productEventTypes)[number];

export interface Identity {
  username_color: string;
  badges: BadgeDoc[];
}

/** §8.8's common user object. */
export interface EventUser {
  is_anonymous: boolean;
  user_id: number | null;
  username: string | null;
  is_verified: boolean | null;
  profile_picture: string | null;
  channel_slug: string | null;
  identity: Identity | null;
}

export interface EventCategory {
  id: number;
  name: string;
  thumbnail: string;
}

export const anonymousUser: EventUser = {
  is_anonymous: true,
  user_id: null,
  username: null,
  is_verified: null,
  profile_picture: null,
  channel_slug: null,
  identity: null,
};

/** Builds the pieces of event payloads; `identity` is only ever filled for a chat sender. */
export function createPayloadParts(images: ImageUrls) {
  return {
    user(user: KickUserDoc, identity: Identity | null = null): EventUser {
      return {
        is_anonymous: false,
        user_id: user.userId,
        username: user.username,
        is_verified: user.isVerified,
        profile_picture: images.avatar(user.userId),
        channel_slug: user.slug,
        identity,
      };
    },
    category(categoryId: number): EventCategory {
      return {
        id: categoryId,
        name: categoryById(categoryId)?.name ?? '',
        thumbnail: images.category(categoryId),
      };
    },
  };
}

export type PayloadParts = ReturnType<typeof createPayloadParts>;

export interface ChatMessageSentPayload {
  message_id: string;
  replies_to?: { message_id: string; content: string; sender: EventUser };
  broadcaster: EventUser;
  sender: EventUser;
  content: string;
  emotes: Emote[];
  created_at: string;
}

export function chatMessageSentPayload(input: {
  messageId: string;
  repliesTo: { messageId: string; content: string; sender: EventUser } | null;
  broadcaster: EventUser;
  sender: EventUser;
  content: string;
  emotes: Emote[];
  createdAt: Date;
}): ChatMessageSentPayload {
  // key order follows kick-api.md's example, so a raw body reads like Kick's
  const payload: ChatMessageSentPayload = {
    message_id: input.messageId,
    broadcaster: input.broadcaster,
    sender: input.sender,
    content: input.content,
    emotes: input.emotes,
    created_at: rfc3339Seconds(input.createdAt),
  };
  if (!input.repliesTo) return payload;
  const { message_id, ...rest } = payload;
  return {
    message_id,
    replies_to: {
      message_id: input.repliesTo.messageId,
      content: input.repliesTo.content,
      sender: input.repliesTo.sender,
    },
    ...rest,
  };
}

export const channelFollowedPayload = (input: { broadcaster: EventUser; follower: EventUser }) => ({
  broadcaster: input.broadcaster,
  follower: input.follower,
});

/** `.new` and `.renewal` share this shape; only the Kick-Event-Type header tells them apart. */
export const subscriptionPayload = (input: {
  broadcaster: EventUser;
  subscriber: EventUser;
  duration: number;
  createdAt: Date;
  expiresAt: Date;
}) => ({
  broadcaster: input.broadcaster,
  subscriber: input.subscriber,
  duration: input.duration,
  created_at: rfc3339Seconds(input.createdAt),
  expires_at: rfc3339Seconds(input.expiresAt),
});

export const subscriptionGiftsPayload = (input: {
  broadcaster: EventUser;
  gifter: EventUser;
  giftees: EventUser[];
  createdAt: Date;
  expiresAt: Date;
}) => ({
  broadcaster: input.broadcaster,
  gifter: input.gifter,
  giftees: input.giftees,
  created_at: rfc3339Seconds(input.createdAt),
  expires_at: rfc3339Seconds(input.expiresAt),
});

export const livestreamStatusPayload = (input: {
  broadcaster: EventUser;
  isLive: boolean;
  title: string;
  startedAt: Date;
  endedAt: Date | null;
}) => ({
  broadcaster: input.broadcaster,
  is_live: input.isLive,
  title: input.title,
  started_at: rfc3339Seconds(input.startedAt),
  ended_at: input.endedAt ? rfc3339Seconds(input.endedAt) : null,
});

export const livestreamMetadataPayload = (input: {
  broadcaster: EventUser;
  title: string;
  language: string;
  hasMatureContent: boolean;
  category: EventCategory;
}) => ({
  broadcaster: input.broadcaster,
  metadata: {
    title: input.title,
    language: input.language,
    has_mature_content: input.hasMatureContent,
    category: input.category,
  },
});

export const moderationBannedPayload = (input: {
  broadcaster: EventUser;
  moderator: EventUser;
  bannedUser: EventUser;
  reason: string;
  createdAt: Date;
  expiresAt: Date | null;
}) => ({
  broadcaster: input.broadcaster,
  moderator: input.moderator,
  banned_user: input.bannedUser,
  metadata: {
    reason: input.reason,
    created_at: rfc3339Seconds(input.createdAt),
    expires_at: input.expiresAt ? rfc3339Seconds(input.expiresAt) : null,
  },
});

/** §8.10's user object for `kicks.gifted` and reward redemptions: no `is_anonymous`, no `identity`. */
export interface ShortEventUser {
  user_id: number;
  username: string;
  is_verified: boolean;
  profile_picture: string;
  channel_slug: string;
}

export const shortUser = (user: EventUser): ShortEventUser => ({
  user_id: user.user_id ?? 0,
  username: user.username ?? '',
  is_verified: user.is_verified ?? false,
  profile_picture: user.profile_picture ?? '',
  channel_slug: user.channel_slug ?? '',
});

export interface KicksGift {
  amount: number;
  name: string;
  type: string;
  tier: string;
  message: string;
  pinnedTimeSeconds: number;
}

/** `kicks.gifted` (§8.10): someone sent Kicks to the channel. */
export const kicksGiftedPayload = (input: {
  broadcaster: EventUser;
  sender: EventUser;
  gift: KicksGift;
  createdAt: Date;
}) => ({
  broadcaster: shortUser(input.broadcaster),
  sender: shortUser(input.sender),
  gift: {
    amount: input.gift.amount,
    name: input.gift.name,
    type: input.gift.type,
    tier: input.gift.tier,
    message: input.gift.message,
    pinned_time_seconds: input.gift.pinnedTimeSeconds,
  },
  created_at: rfc3339Seconds(input.createdAt),
});

export type RedemptionStatus = 'pending' | 'accepted' | 'rejected';

/** `channel.reward.redemption.updated` (§8.10): a channel-points reward was redeemed, accepted or rejected. */
export const rewardRedemptionPayload = (input: {
  id: string;
  userInput: string;
  status: RedemptionStatus;
  redeemedAt: Date;
  reward: { id: string; title: string; cost: number; description: string };
  redeemer: EventUser;
  broadcaster: EventUser;
}) => ({
  id: input.id,
  user_input: input.userInput,
  status: input.status,
  redeemed_at: rfc3339Seconds(input.redeemedAt),
  reward: {
    id: input.reward.id,
    title: input.reward.title,
    cost: input.reward.cost,
    description: input.reward.description,
  },
  redeemer: shortUser(input.redeemer),
  broadcaster: shortUser(input.broadcaster),
});
