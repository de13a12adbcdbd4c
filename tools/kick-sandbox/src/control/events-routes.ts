import { Router } from 'express';
import { z } from 'zod';
import { parseBody } from '@kickstand/platform/http';
import type { DeliveryDoc } from '../repository';
import { categories, categoryById } from '../categories';
import type { ControlDeps } from './control-deps';
import { findOrCreateUser, findUser, userRefSchema } from './control-kit';
import { chatView, deliveryView } from './views';
import { badgesIn } from '../kick-users';
import { ulidPattern } from '../ids';

const badgeTexts: Record<string, string> = {
  broadcaster: 'Broadcaster',
  moderator: 'Moderator',
  subscriber: 'Subscriber',
  vip: 'VIP',
  og: 'OG',
  founder: 'Founder',
  verified: 'Verified',
  staff: 'Staff',
  sub_gifter: 'Sub Gifter',
};

// a badge is a type name ("moderator") or Kick's object; the type is an open string, as on Kick
const badgeSchema = z.union([
  z.string().regex(/^[a-z_]{1,30}$/, 'a badge type is lower-case letters and underscores'),
  z.strictObject({
    type: z.string().regex(/^[a-z_]{1,30}$/),
    text: z.string().min(1).max(50).optional(),
    count: z.number().int().min(1).optional(),
  }),
]);

const chatEventSchema = z.strictObject({
  broadcaster: userRefSchema,
  sender: userRefSchema,
  content: z
    .string()
    .min(1, 'content must not be empty')
    .refine((value) => Array.from(value).length <= 500, 'content is at most 500 characters'),
  /** Absent: what the sandbox knows of the sender's roles in the channel. */
  badges: z.array(badgeSchema).max(10).optional(),
  usernameColor: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/, 'usernameColor is #RRGGBB')
    .optional(),
  replyToMessageId: z.string().min(1).max(64).optional(),
});

const followSchema = z.strictObject({ broadcaster: userRefSchema, follower: userRefSchema });

const subscriptionSchema = z.strictObject({
  broadcaster: userRefSchema,
  subscriber: userRefSchema,
  /** Months; for a renewal the running total. */
  duration: z.number().int().min(1).max(240).default(1),
  /** Renewals: when the subscription first started (default: `duration - 1` months ago). */
  startedAt: z.iso.datetime({ offset: true }).optional(),
});

const giftsSchema = z
  .strictObject({
    broadcaster: userRefSchema,
    /** null or absent with isAnonymous: an anonymous gift. */
    gifter: userRefSchema.nullable().optional(),
    isAnonymous: z.boolean().optional(),
    giftees: z.array(userRefSchema).min(1).max(100),
  })
  .refine((body) => body.isAnonymous === true || (body.gifter !== undefined && body.gifter !== null), {
    message: 'name a gifter, or set isAnonymous: true',
  });

const streamStartSchema = z.strictObject({ broadcaster: userRefSchema, title: z.string().max(200).optional() });
const streamEndSchema = z.strictObject({ broadcaster: userRefSchema });

const metadataSchema = z.strictObject({
  broadcaster: userRefSchema,
  title: z.string().min(1).max(200).optional(),
  language: z.string().min(2).max(10).optional(),
  categoryId: z
    .number()
    .int()
    .refine(
      (id) => categoryById(id) !== undefined,
      `categoryId must be one of ${categories.map((c) => c.id).join(', ')}`,
    )
    .optional(),
  hasMatureContent: z.boolean().optional(),
});

const banSchema = z.strictObject({
  broadcaster: userRefSchema,
  user: userRefSchema,
  /** Default: the broadcaster. */
  moderator: userRefSchema.optional(),
  reason: z.string().max(100).optional(),
  /** Absent: a permanent ban. */
  durationMinutes: z.number().int().min(1).max(10080).optional(),
});

const kicksGiftedSchema = z.strictObject({
  broadcaster: userRefSchema,
  sender: userRefSchema,
  amount: z.number().int().min(1).max(1_000_000),
  name: z.string().min(1).max(100).default('Full Send'),
  /** Kick's gift type and tier are open strings (e.g. BASIC, LEVEL_UP / BASIC, MID, HIGH). */
  type: z.string().min(1).max(50).default('BASIC'),
  tier: z.string().min(1).max(50).default('BASIC'),
  message: z.string().max(500).default(''),
  pinnedTimeSeconds: z.number().int().min(0).max(86_400).default(0),
});

const rewardRedemptionSchema = z.strictObject({
  broadcaster: userRefSchema,
  redeemer: userRefSchema,
  /** The redemption's id (a ULID); give the id of an earlier one to send its accepted/rejected update. */
  id: z.string().regex(ulidPattern, 'id is a ULID').optional(),
  status: z.enum(['pending', 'accepted', 'rejected']).default('pending'),
  userInput: z.string().max(500).default(''),
  redeemedAt: z.iso.datetime({ offset: true }).optional(),
  reward: z.strictObject({
    id: z.string().regex(ulidPattern, 'reward.id is a ULID').optional(),
    title: z.string().min(1).max(100),
    cost: z.number().int().min(1).max(10_000_000),
    description: z.string().max(500).default(''),
  }),
});

const rawSchema = z.strictObject({
  broadcaster: userRefSchema,
  type: z.string().regex(/^[a-z0-9_.]{1,100}$/, 'an event type such as kicks.gifted'),
  payload: z.record(z.string(), z.unknown()),
});

const emitted = (deliveries: DeliveryDoc[], extra: Record<string, unknown> = {}) => ({
  success: true,
  data: { ...extra, deliveries: deliveries.map(deliveryView) },
});

/** Triggers: each answers 201 with the deliveries it caused (already recorded, sent in the background). */
export function controlEventsRoutes(deps: ControlDeps): Router {
  const { users, channels, bans, viewerEvents, chat } = deps;
  const router = Router();

  router.post('/events/chat', async (req, res) => {
    const body = parseBody(chatEventSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const sender = await findOrCreateUser(users, body.sender);
    const badges =
      body.badges?.map((badge) => {
        const type = typeof badge === 'string' ? badge : badge.type;
        const text = (typeof badge === 'string' ? undefined : badge.text) ?? badgeTexts[type] ?? type;
        const count = typeof badge === 'string' ? undefined : badge.count;
        // Kick counts months on the subscriber badge; one month when the caller did not say
        return count !== undefined
          ? { text, type, count }
          : type === 'subscriber'
            ? { text, type, count: 1 }
            : { text, type };
      }) ?? badgesIn(broadcaster, sender.userId);
    const { result, deliveries } = await viewerEvents.chat({
      broadcaster,
      sender,
      content: body.content,
      badges,
      usernameColor: body.usernameColor,
      replyToMessageId: body.replyToMessageId,
    });
    const replyTo = result.replyToMessageId ? await chat.byId(result.replyToMessageId) : null;
    res.status(201).json(emitted(deliveries, { message: chatView(result, replyTo) }));
  });

  router.post('/events/follow', async (req, res) => {
    const body = parseBody(followSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const { deliveries } = await viewerEvents.follow(broadcaster, await findOrCreateUser(users, body.follower));
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/subscription-new', async (req, res) => {
    const body = parseBody(subscriptionSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const subscriber = await findOrCreateUser(users, body.subscriber);
    const { deliveries } = await viewerEvents.subscribe(broadcaster, subscriber, body.duration);
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/subscription-renewal', async (req, res) => {
    const body = parseBody(subscriptionSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const subscriber = await findOrCreateUser(users, body.subscriber);
    const startedAt = body.startedAt === undefined ? undefined : new Date(body.startedAt);
    const { deliveries } = await viewerEvents.renew(broadcaster, subscriber, body.duration, startedAt);
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/subscription-gifts', async (req, res) => {
    const body = parseBody(giftsSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const gifter = body.isAnonymous || !body.gifter ? null : await findOrCreateUser(users, body.gifter);
    const giftees = [];
    for (const ref of body.giftees) giftees.push(await findOrCreateUser(users, ref));
    const { deliveries } = await viewerEvents.gift(broadcaster, gifter, giftees);
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/stream-start', async (req, res) => {
    const body = parseBody(streamStartSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const { deliveries } = await channels.startStream(broadcaster.userId, { title: body.title });
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/stream-end', async (req, res) => {
    const body = parseBody(streamEndSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const { deliveries } = await channels.endStream(broadcaster.userId);
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/metadata', async (req, res) => {
    const body = parseBody(metadataSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const { deliveries } = await channels.updateMetadata(broadcaster.userId, {
      streamTitle: body.title,
      language: body.language,
      categoryId: body.categoryId,
      isMature: body.hasMatureContent,
    });
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/ban', async (req, res) => {
    const body = parseBody(banSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const banned = await findOrCreateUser(users, body.user);
    const moderator = body.moderator === undefined ? broadcaster : await findOrCreateUser(users, body.moderator);
    const { deliveries } = await bans.ban({
      broadcasterUserId: broadcaster.userId,
      userId: banned.userId,
      moderator,
      reason: body.reason ?? '',
      durationMinutes: body.durationMinutes,
      source: 'sandbox',
    });
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/kicks-gifted', async (req, res) => {
    const { broadcaster: broadcasterRef, sender: senderRef, ...gift } = parseBody(kicksGiftedSchema, req);
    const broadcaster = await findUser(users, broadcasterRef);
    const sender = await findOrCreateUser(users, senderRef);
    const { deliveries } = await viewerEvents.kicksGifted(broadcaster, sender, gift);
    res.status(201).json(emitted(deliveries));
  });

  router.post('/events/reward-redemption', async (req, res) => {
    const body = parseBody(rewardRedemptionSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const redeemer = await findOrCreateUser(users, body.redeemer);
    const { result, deliveries } = await viewerEvents.rewardRedemption({
      broadcaster,
      redeemer,
      id: body.id,
      status: body.status,
      userInput: body.userInput,
      redeemedAt: body.redeemedAt === undefined ? undefined : new Date(body.redeemedAt),
      reward: body.reward,
    });
    res.status(201).json(emitted(deliveries, { redemptionId: result.id, rewardId: result.rewardId }));
  });

  router.post('/events/raw', async (req, res) => {
    const body = parseBody(rawSchema, req);
    const broadcaster = await findUser(users, body.broadcaster);
    const { deliveries } = await viewerEvents.raw(broadcaster, body.type, body.payload);
    res.status(201).json(emitted(deliveries));
  });

  return router;
}
