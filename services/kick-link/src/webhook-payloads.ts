import { z } from 'zod';

/**
 * The bodies of the eight product events (kick-api.md §8.8–8.9), as zod schemas. Unknown fields
 * are accepted (Kick adds fields over time); documented nulls are accepted; the fields each type
 * promises must be there, so a body that does not match the type named in the header is refused.
 */

const rfc3339 = z.iso.datetime({ offset: true });

const badgeSchema = z.looseObject({
  text: z.string(),
  type: z.string(),
  count: z.number().int().nullish(),
});

const identitySchema = z.looseObject({
  username_color: z.string().nullish(),
  badges: z.array(badgeSchema).nullish(),
});

/** §8.8's common user object; every field but is_anonymous may be null (an anonymous gifter). */
const userSchema = z.looseObject({
  is_anonymous: z.boolean().nullish(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  is_verified: z.boolean().nullish(),
  profile_picture: z.string().nullish(),
  channel_slug: z.string().nullish(),
  identity: identitySchema.nullish(),
});

/** The channel: always a real user with an id (deliveries are routed by it). */
const broadcasterSchema = userSchema.extend({ user_id: z.number().int().positive(), username: z.string() });

/** A person who acted (chat sender, follower, subscriber, moderator…): never anonymous. */
const actorSchema = userSchema.extend({ user_id: z.number().int(), username: z.string() });

const emoteSchema = z.looseObject({
  emote_id: z.union([z.string(), z.number()]).transform(String),
  positions: z.array(z.looseObject({ s: z.number().int(), e: z.number().int() })).nullish(),
});

export const chatMessageSentSchema = z.looseObject({
  message_id: z.string().min(1),
  replies_to: z.looseObject({ message_id: z.string().min(1), content: z.string(), sender: userSchema }).nullish(),
  broadcaster: broadcasterSchema,
  sender: actorSchema,
  content: z.string(),
  emotes: z.array(emoteSchema).nullish(),
  // added in Jul 2025 (§8.9): the message timestamp header stands in when it is missing
  created_at: rfc3339.nullish(),
});

export type ChatMessageSent = z.infer<typeof chatMessageSentSchema>;
export type KickEventUser = z.infer<typeof userSchema>;

const subscriptionSchema = z.looseObject({
  broadcaster: broadcasterSchema,
  subscriber: actorSchema,
  duration: z.number().int(),
  created_at: rfc3339,
  expires_at: rfc3339.nullish(),
});

const categorySchema = z.looseObject({ id: z.number().int(), name: z.string(), thumbnail: z.string().nullish() });

/** Every product event type → its body schema. */
export const eventSchemas = {
  'chat.message.sent': chatMessageSentSchema,
  'channel.followed': z.looseObject({ broadcaster: broadcasterSchema, follower: actorSchema }),
  'channel.subscription.new': subscriptionSchema,
  'channel.subscription.renewal': subscriptionSchema,
  'channel.subscription.gifts': z.looseObject({
    broadcaster: broadcasterSchema,
    gifter: userSchema,
    giftees: z.array(actorSchema),
    created_at: rfc3339,
    expires_at: rfc3339.nullish(),
  }),
  'livestream.status.updated': z.looseObject({
    broadcaster: broadcasterSchema,
    is_live: z.boolean(),
    title: z.string(),
    started_at: rfc3339,
    ended_at: rfc3339.nullable(),
  }),
  'livestream.metadata.updated': z.looseObject({
    broadcaster: broadcasterSchema,
    metadata: z.looseObject({
      title: z.string(),
      language: z.string(),
      has_mature_content: z.boolean(),
      category: categorySchema,
    }),
  }),
  'moderation.banned': z.looseObject({
    broadcaster: broadcasterSchema,
    moderator: actorSchema,
    banned_user: actorSchema,
    metadata: z.looseObject({
      reason: z.string().nullable(),
      created_at: rfc3339,
      expires_at: rfc3339.nullable(),
    }),
  }),
} as const;

export type ProductEventType = keyof typeof eventSchemas;

export type ParsedDelivery =
  | { kind: 'unknown-type' }
  | { kind: 'invalid'; problem: string }
  | { kind: 'chat'; broadcasterUserId: string; payload: ChatMessageSent }
  | { kind: 'event'; broadcasterUserId: string };

const isProductEventType = (type: string): type is ProductEventType => Object.hasOwn(eventSchemas, type);

/** Checks the body against the type named in Kick-Event-Type. */
export function parseDelivery(eventType: string, body: unknown): ParsedDelivery {
  if (!isProductEventType(eventType)) return { kind: 'unknown-type' };
  if (eventType === 'chat.message.sent') {
    const chat = chatMessageSentSchema.safeParse(body);
    if (!chat.success) return { kind: 'invalid', problem: firstProblem(chat.error) };
    return { kind: 'chat', broadcasterUserId: String(chat.data.broadcaster.user_id), payload: chat.data };
  }
  const result = eventSchemas[eventType].safeParse(body);
  if (!result.success) return { kind: 'invalid', problem: firstProblem(result.error) };
  return { kind: 'event', broadcasterUserId: String(result.data.broadcaster.user_id) };
}

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'the body does not match the event type';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

// ---------------------------------------------------------------------------------------------
// Mapping to the bus messages (init shapes of proto/kickstand/events/v1)
// ---------------------------------------------------------------------------------------------

export interface TimestampInit {
  seconds: bigint;
  nanos: number;
}

export function timestampOf(date: Date): TimestampInit {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
}

export interface KickUserInit {
  userId: string;
  username: string;
  isAnonymous: boolean;
  isVerified: boolean;
  channelSlug: string;
  profilePicture: string;
  identity?: { usernameColor: string; badges: { text: string; type: string; count: number }[] };
}

export function kickUserOf(user: KickEventUser): KickUserInit {
  const mapped: KickUserInit = {
    // proto: "0" when anonymous (Kick sends null)
    userId: String(user.user_id ?? 0),
    username: user.username ?? '',
    isAnonymous: user.is_anonymous ?? false,
    isVerified: user.is_verified ?? false,
    channelSlug: user.channel_slug ?? '',
    profilePicture: user.profile_picture ?? '',
  };
  if (user.identity) {
    mapped.identity = {
      usernameColor: user.identity.username_color ?? '',
      badges: (user.identity.badges ?? []).map((badge) => ({
        text: badge.text,
        type: badge.type,
        count: badge.count ?? 0,
      })),
    };
  }
  return mapped;
}

export interface ChatReceivedInit {
  eventId: string;
  occurredAt: TimestampInit;
  kickMessageId: string;
  messageId: string;
  broadcasterUserId: string;
  broadcasterUsername: string;
  broadcasterChannelSlug: string;
  ownerUserId: string;
  sender: KickUserInit;
  content: string;
  emotes: { emoteId: string; positions: { s: number; e: number }[] }[];
  repliesTo?: { messageId: string; content: string; sender: KickUserInit };
  createdAt: TimestampInit;
  receivedAt: TimestampInit;
  isFromBot: boolean;
}

export interface DeliveryContext {
  kickMessageId: string;
  subscriptionId: string;
  eventType: string;
  eventVersion: string;
  messageTimestamp: Date;
  receivedAt: Date;
  ownerUserId: string;
}

export function toChatReceived(
  payload: ChatMessageSent,
  context: DeliveryContext,
  isFromBot: boolean,
): ChatReceivedInit {
  const createdAt = payload.created_at ? new Date(payload.created_at) : context.messageTimestamp;
  const message: ChatReceivedInit = {
    // the webhook message id: a consumer that sees this event twice (it cannot, but still) dedupes on it
    eventId: context.kickMessageId,
    occurredAt: timestampOf(context.receivedAt),
    kickMessageId: context.kickMessageId,
    messageId: payload.message_id,
    broadcasterUserId: String(payload.broadcaster.user_id),
    broadcasterUsername: payload.broadcaster.username,
    broadcasterChannelSlug: payload.broadcaster.channel_slug ?? '',
    ownerUserId: context.ownerUserId,
    sender: kickUserOf(payload.sender),
    content: payload.content,
    emotes: (payload.emotes ?? []).map((emote) => ({
      emoteId: emote.emote_id,
      positions: (emote.positions ?? []).map(({ s, e }) => ({ s, e })),
    })),
    createdAt: timestampOf(createdAt),
    receivedAt: timestampOf(context.receivedAt),
    isFromBot,
  };
  if (payload.replies_to) {
    message.repliesTo = {
      messageId: payload.replies_to.message_id,
      content: payload.replies_to.content,
      // Kick sends no identity for the replied-to sender
      sender: { ...kickUserOf(payload.replies_to.sender), identity: undefined },
    };
  }
  return message;
}

export interface KickEventInit {
  eventId: string;
  occurredAt: TimestampInit;
  kickMessageId: string;
  subscriptionId: string;
  eventType: string;
  eventVersion: string;
  messageTimestamp: TimestampInit;
  broadcasterUserId: string;
  ownerUserId: string;
  payloadJson: string;
}

export function toKickEvent(broadcasterUserId: string, rawBody: Buffer, context: DeliveryContext): KickEventInit {
  return {
    eventId: context.kickMessageId,
    occurredAt: timestampOf(context.receivedAt),
    kickMessageId: context.kickMessageId,
    subscriptionId: context.subscriptionId,
    eventType: context.eventType,
    eventVersion: context.eventVersion,
    messageTimestamp: timestampOf(context.messageTimestamp),
    broadcasterUserId,
    ownerUserId: context.ownerUserId,
    // the body exactly as Kick sent it
    payloadJson: rawBody.toString('utf8'),
  };
}
