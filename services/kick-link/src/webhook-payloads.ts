import { timestampFromDate, type Timestamp } from '@kickstand/proto';
import { z } from 'zod';
import { cutChatLine } from '@kickstand/platform/chat';

/**
 * The bodies of the product's events (kick-api.md §8.8–8.10), as zod schemas that bend where real
 * Kick drifts (§8.10 "Shapes drift"): unknown fields are kept, documented objects and arrays may
 * be null or missing, ids may come as numbers or strings, and a decorative field that is broken
 * is dropped (`.catch`) rather than failing the delivery. What the product truly needs is still
 * required: the broadcaster's id (deliveries are routed by it), and per type the part that makes
 * the event what it is (a chat line's id, text and sender; the follower; the gift…), which also
 * stops a body from passing for another type (Kick-Event-Type is not signed, §8.6).
 */

const rfc3339 = z.iso.datetime({ offset: true });

/** A Kick id (user ids are integers, §10.12), also when it arrives as a decimal string: as a string. */
const kickId = z
  .union([z.number().int().nonnegative(), z.string().trim().regex(/^\d+$/, 'not a decimal id')])
  .transform((id) => String(Number(id)));

/** A string id (message ids, emote ids), also when it arrives as a number. */
const stringId = z.union([z.string().min(1), z.number()]).transform(String);

/** A number, also when it arrives as a decimal string. */
const looseNumber = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** An optional field: null when missing, null or not what the docs show. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);

/** A list whose broken items are left out, and that is empty when missing, null or no list. */
const lenientList = <T extends z.ZodType>(item: T) =>
  z
    .array(item.nullable().catch(null))
    .nullish()
    .catch(null)
    .transform((items) => (items ?? []).filter((entry): entry is NonNullable<typeof entry> => entry != null));

const badgeSchema = z.looseObject({
  text: optional(z.string()),
  type: z.string().min(1),
  count: optional(looseNumber),
});

const identitySchema = z.looseObject({
  username_color: optional(z.string()),
  badges: lenientList(badgeSchema),
});

/** §8.8's common user object: every field may be null or missing (an anonymous gifter). */
const userSchema = z.looseObject({
  is_anonymous: optional(z.boolean()),
  user_id: optional(kickId),
  username: optional(z.string()),
  is_verified: optional(z.boolean()),
  profile_picture: optional(z.string()),
  channel_slug: optional(z.string()),
  identity: optional(identitySchema),
});

/** The channel: always has an id, deliveries are routed by it. */
const broadcasterSchema = userSchema.extend({ user_id: kickId });

/** A chatter: named (the live chat and the bot's `{user}` show the name). */
const senderSchema = userSchema.extend({ username: z.string() });

const emoteSchema = z.looseObject({
  emote_id: stringId,
  positions: lenientList(z.looseObject({ s: looseNumber, e: looseNumber })),
});

export const chatMessageSentSchema = z.looseObject({
  message_id: stringId,
  replies_to: optional(
    z.looseObject({
      message_id: stringId,
      content: optional(z.string()),
      sender: optional(userSchema),
    }),
  ),
  broadcaster: broadcasterSchema,
  sender: senderSchema,
  content: z.string(),
  emotes: lenientList(emoteSchema),
  // added in Jul 2025 (§8.9): the message timestamp header stands in when it is missing
  created_at: optional(rfc3339),
});

export type ChatMessageSent = z.infer<typeof chatMessageSentSchema>;
export type KickEventUser = z.infer<typeof userSchema>;

const subscriptionSchema = z.looseObject({
  broadcaster: broadcasterSchema,
  subscriber: userSchema,
  duration: optional(looseNumber),
  created_at: optional(rfc3339),
  expires_at: optional(rfc3339),
});

const categorySchema = z.looseObject({
  id: optional(looseNumber),
  name: optional(z.string()),
  thumbnail: optional(z.string()),
});

/** Every event type the door uses → its body schema (version 1, the only one there is). */
export const eventSchemas = {
  'chat.message.sent': chatMessageSentSchema,
  'channel.followed': z.looseObject({ broadcaster: broadcasterSchema, follower: userSchema }),
  'channel.subscription.new': subscriptionSchema,
  'channel.subscription.renewal': subscriptionSchema,
  'channel.subscription.gifts': z.looseObject({
    broadcaster: broadcasterSchema,
    // null or missing: an anonymous gift
    gifter: optional(userSchema),
    giftees: lenientList(userSchema),
    created_at: optional(rfc3339),
    expires_at: optional(rfc3339),
  }),
  'livestream.status.updated': z.looseObject({
    broadcaster: broadcasterSchema,
    is_live: z.boolean(),
    title: optional(z.string()),
    started_at: optional(rfc3339),
    ended_at: optional(rfc3339),
  }),
  'livestream.metadata.updated': z.looseObject({
    broadcaster: broadcasterSchema,
    metadata: z.looseObject({
      title: optional(z.string()),
      language: optional(z.string()),
      has_mature_content: optional(z.boolean()),
      // seen as null on the live service (§8.10)
      category: optional(categorySchema),
    }),
  }),
  'moderation.banned': z.looseObject({
    broadcaster: broadcasterSchema,
    moderator: optional(userSchema),
    banned_user: userSchema,
    metadata: optional(
      z.looseObject({
        reason: optional(z.string()),
        created_at: optional(rfc3339),
        expires_at: optional(rfc3339),
      }),
    ),
  }),
  // §8.10: user objects here have no is_anonymous/identity
  'kicks.gifted': z.looseObject({
    broadcaster: broadcasterSchema,
    sender: optional(userSchema),
    gift: z.looseObject({
      amount: looseNumber,
      name: optional(z.string()),
      type: optional(z.string()),
      tier: optional(z.string()),
      message: optional(z.string()),
      pinned_time_seconds: optional(looseNumber),
    }),
    created_at: optional(rfc3339),
  }),
  'channel.reward.redemption.updated': z.looseObject({
    id: optional(stringId),
    user_input: optional(z.string()),
    status: optional(z.string()),
    redeemed_at: optional(rfc3339),
    reward: z.looseObject({
      id: optional(stringId),
      title: z.string(),
      cost: optional(looseNumber),
      description: optional(z.string()),
    }),
    redeemer: optional(userSchema),
    broadcaster: broadcasterSchema,
  }),
} as const;

export type ProductEventType = keyof typeof eventSchemas;

/** The versions the door understands: every event is at version 1 (kick-api.md §1). */
export const knownVersion = '1';

/**
 * What a body is to the door. `unusable` goes to the dead letters with its reason; its channel is
 * read (leniently) when the body has one, for the delivery-health views.
 */
export type ParsedDelivery =
  | { kind: 'unusable'; reason: string; broadcasterUserId: string | null }
  | { kind: 'chat'; broadcasterUserId: string; payload: ChatMessageSent }
  | { kind: 'event'; broadcasterUserId: string };

const isProductEventType = (type: string): type is ProductEventType => Object.hasOwn(eventSchemas, type);

const channelOnlySchema = z.looseObject({ broadcaster: z.looseObject({ user_id: kickId }) });

/** The broadcaster id of any body that has a readable one, else null. */
export function channelOf(body: unknown): string | null {
  const result = channelOnlySchema.safeParse(body);
  return result.success ? result.data.broadcaster.user_id : null;
}

/** The raw body read as JSON, or undefined when it is not JSON. */
export function readJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Checks the body against the type and version named in the headers. Dead-letter reasons start
 * with a short code (`not-json`, `unknown-type`, `unknown-version`, `no-broadcaster`, `invalid`),
 * the label /metrics counts them by.
 */
export function parseDelivery(eventType: string, eventVersion: string, rawBody: Buffer): ParsedDelivery {
  const body = readJson(rawBody);
  if (body === undefined)
    return { kind: 'unusable', reason: 'not-json: the body is not JSON', broadcasterUserId: null };
  if (eventType === 'chat.message.sent' && eventVersion === knownVersion) {
    const payload = plainChatMessage(body);
    if (payload) return { kind: 'chat', broadcasterUserId: payload.broadcaster.user_id, payload };
  }
  const broadcasterUserId = channelOf(body);
  if (!isProductEventType(eventType)) {
    return { kind: 'unusable', reason: `unknown-type: ${eventType}`, broadcasterUserId };
  }
  if (eventVersion !== knownVersion) {
    return { kind: 'unusable', reason: `unknown-version: ${eventType} version ${eventVersion}`, broadcasterUserId };
  }
  if (broadcasterUserId === null) {
    return { kind: 'unusable', reason: 'no-broadcaster: the body has no broadcaster.user_id', broadcasterUserId };
  }
  if (eventType === 'chat.message.sent') {
    const chat = chatMessageSentSchema.safeParse(body);
    if (!chat.success) return { kind: 'unusable', reason: `invalid: ${firstProblem(chat.error)}`, broadcasterUserId };
    return { kind: 'chat', broadcasterUserId, payload: chat.data };
  }
  const result = eventSchemas[eventType].safeParse(body);
  if (!result.success) return { kind: 'unusable', reason: `invalid: ${firstProblem(result.error)}`, broadcasterUserId };
  return { kind: 'event', broadcasterUserId };
}

// ---------------------------------------------------------------------------------------------
// The chat line as Kick documents it, without zod
// ---------------------------------------------------------------------------------------------
//
// Nearly every delivery is a chat line in the documented shape, and running it through
// `chatMessageSentSchema` (and `channelOf`) cost the owner thread ~2–3 % at 1,000 msg/s
// (docs/performance.md, "The owner's per-line cost, another round"). A body whose every field is
// absent, null or of its documented type is read here instead, to what the schema makes of it:
// the same values (ids as strings, missing lists as []). Anything else, including every shape the
// schema bends or drops, is left to the schema; so what is accepted, refused or dead-lettered,
// and why, is the schema's alone.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Absent (undefined after JSON.parse) or null. */
const isNone = (value: unknown): value is null | undefined => value === undefined || value === null;
const isNoneOr = (value: unknown, type: 'string' | 'boolean' | 'number'): boolean =>
  isNone(value) || typeof value === type;
/** What `kickId` accepts unchanged in meaning: a safe non-negative integer, or a decimal string. */
const isPlainKickId = (value: unknown): value is number | string =>
  (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ||
  (typeof value === 'string' && /^\d+$/.test(value));
/** `kickId`'s transform. */
const kickIdString = (value: number | string): string => String(Number(value));
const isPlainStringId = (value: unknown): value is string | number =>
  (typeof value === 'string' && value.length > 0) || (typeof value === 'number' && Number.isFinite(value));
const isPlainNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isPlainTime = (value: unknown): boolean =>
  isNone(value) || (typeof value === 'string' && rfc3339.safeParse(value).success);

/** A list of items that all pass, or none/null (the schema's `lenientList` drops those that do not pass). */
const isPlainList = (value: unknown, isItem: (item: unknown) => boolean): boolean =>
  isNone(value) || (Array.isArray(value) && value.every(isItem));

const isPlainBadge = (badge: unknown): boolean =>
  isObject(badge) &&
  typeof badge.type === 'string' &&
  badge.type.length > 0 &&
  isNoneOr(badge.text, 'string') &&
  (isNone(badge.count) || isPlainNumber(badge.count));

const isPlainUser = (user: unknown): user is Json =>
  isObject(user) &&
  isNoneOr(user.is_anonymous, 'boolean') &&
  (isNone(user.user_id) || isPlainKickId(user.user_id)) &&
  isNoneOr(user.username, 'string') &&
  isNoneOr(user.is_verified, 'boolean') &&
  isNoneOr(user.profile_picture, 'string') &&
  isNoneOr(user.channel_slug, 'string') &&
  (isNone(user.identity) ||
    (isObject(user.identity) &&
      isNoneOr(user.identity.username_color, 'string') &&
      isPlainList(user.identity.badges, isPlainBadge)));

const isPlainEmote = (emote: unknown): boolean =>
  isObject(emote) &&
  isPlainStringId(emote.emote_id) &&
  isPlainList(emote.positions, (at) => isObject(at) && isPlainNumber(at.s) && isPlainNumber(at.e));

function isPlainChat(body: Json): boolean {
  const { broadcaster, sender, replies_to: repliesTo } = body;
  return (
    isPlainStringId(body.message_id) &&
    typeof body.content === 'string' &&
    isPlainUser(broadcaster) &&
    isPlainKickId(broadcaster.user_id) &&
    isPlainUser(sender) &&
    typeof sender.username === 'string' &&
    isPlainList(body.emotes, isPlainEmote) &&
    isPlainTime(body.created_at) &&
    (isNone(repliesTo) ||
      (isObject(repliesTo) &&
        isPlainStringId(repliesTo.message_id) &&
        isNoneOr(repliesTo.content, 'string') &&
        (isNone(repliesTo.sender) || isPlainUser(repliesTo.sender))))
  );
}

/** The schema's transforms of a user that passed `isPlainUser`, in place. */
function settleUser(user: Json): void {
  if (!isNone(user.user_id)) user.user_id = kickIdString(user.user_id as number | string);
  if (isObject(user.identity)) user.identity.badges ??= [];
}

/**
 * A chat.message.sent body in the documented shape, as `chatMessageSentSchema` reads it (the
 * body itself, fresh from JSON.parse, settled in place); undefined when the schema is to read it.
 */
export function plainChatMessage(body: unknown): ChatMessageSent | undefined {
  if (!isObject(body) || !isPlainChat(body)) return undefined;
  body.message_id = String(body.message_id);
  settleUser(body.broadcaster as Json);
  settleUser(body.sender as Json);
  body.emotes ??= [];
  for (const emote of body.emotes as Json[]) {
    emote.emote_id = String(emote.emote_id);
    emote.positions ??= [];
  }
  const repliesTo = body.replies_to;
  if (isObject(repliesTo)) {
    repliesTo.message_id = String(repliesTo.message_id);
    if (isObject(repliesTo.sender)) settleUser(repliesTo.sender);
  }
  return body as ChatMessageSent;
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
    userId: user.user_id ?? '0',
    username: user.username ?? '',
    isAnonymous: user.is_anonymous ?? false,
    isVerified: user.is_verified ?? false,
    channelSlug: user.channel_slug ?? '',
    profilePicture: user.profile_picture ?? '',
  };
  if (user.identity) {
    mapped.identity = {
      usernameColor: user.identity.username_color ?? '',
      badges: user.identity.badges.map((badge) => ({
        text: badge.text ?? '',
        type: badge.type,
        count: Math.trunc(badge.count ?? 0),
      })),
    };
  }
  return mapped;
}

export interface ChatReceivedInit {
  eventId: string;
  occurredAt: Timestamp;
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
  createdAt: Timestamp;
  receivedAt: Timestamp;
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
    occurredAt: timestampFromDate(context.receivedAt),
    kickMessageId: context.kickMessageId,
    messageId: payload.message_id,
    broadcasterUserId: payload.broadcaster.user_id,
    broadcasterUsername: payload.broadcaster.username ?? '',
    broadcasterChannelSlug: payload.broadcaster.channel_slug ?? '',
    ownerUserId: context.ownerUserId,
    sender: kickUserOf(payload.sender),
    // Kick caps chat at 500 characters; a longer line (a misbehaving sender, a forged test) is cut
    // rather than refused, so nothing downstream stores or parses 90 KB
    content: cutChatLine(payload.content),
    emotes: payload.emotes.map((emote) => ({
      emoteId: emote.emote_id,
      positions: emote.positions.map(({ s, e }) => ({ s: Math.trunc(s), e: Math.trunc(e) })),
    })),
    createdAt: timestampFromDate(createdAt),
    receivedAt: timestampFromDate(context.receivedAt),
    isFromBot,
  };
  if (payload.replies_to) {
    message.repliesTo = {
      messageId: payload.replies_to.message_id,
      content: cutChatLine(payload.replies_to.content ?? ''),
      // Kick sends no identity for the replied-to sender
      sender: { ...kickUserOf(payload.replies_to.sender ?? {}), identity: undefined },
    };
  }
  return message;
}

export interface KickEventInit {
  eventId: string;
  occurredAt: Timestamp;
  kickMessageId: string;
  subscriptionId: string;
  eventType: string;
  eventVersion: string;
  messageTimestamp: Timestamp;
  broadcasterUserId: string;
  ownerUserId: string;
  payloadJson: string;
}

export function toKickEvent(broadcasterUserId: string, rawBody: Buffer, context: DeliveryContext): KickEventInit {
  return {
    eventId: context.kickMessageId,
    occurredAt: timestampFromDate(context.receivedAt),
    kickMessageId: context.kickMessageId,
    subscriptionId: context.subscriptionId,
    eventType: context.eventType,
    eventVersion: context.eventVersion,
    messageTimestamp: timestampFromDate(context.messageTimestamp),
    broadcasterUserId,
    ownerUserId: context.ownerUserId,
    // the body exactly as Kick sent it
    payloadJson: rawBody.toString('utf8'),
  };
}
