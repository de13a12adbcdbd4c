import { Router } from 'express';
import { z } from 'zod';
import { parseBody, parseParams } from '@kickstand/platform/http';
import { categories, categoryById } from '../categories';
import { usernamePattern } from '../kick-users';
import type { ControlDeps } from './control-deps';
import { findUser, userRefParamSchema } from './control-kit';
import { userView } from './views';

const categoryIdSchema = z
  .number()
  .int()
  .refine(
    (id) => categoryById(id) !== undefined,
    `categoryId must be one of ${categories.map((c) => c.id).join(', ')}`,
  );

const createUserSchema = z.strictObject({
  username: z.string().regex(usernamePattern, 'username must be 3–25 letters, digits or underscores'),
  userId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  email: z.email().optional(),
  isVerified: z.boolean().optional(),
  usernameColor: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/, 'usernameColor is #RRGGBB')
    .optional(),
  description: z.string().max(500).optional(),
  streamTitle: z.string().max(200).optional(),
  categoryId: categoryIdSchema.optional(),
  language: z.string().min(2).max(10).optional(),
  isMature: z.boolean().optional(),
});

const setChannelSchema = z.strictObject({
  isLive: z.boolean().optional(),
  streamTitle: z.string().max(200).optional(),
  description: z.string().max(500).optional(),
  categoryId: categoryIdSchema.optional(),
  language: z.string().min(2).max(10).optional(),
  isMature: z.boolean().optional(),
  viewerCount: z.number().int().min(0).optional(),
  customTags: z.array(z.string().min(1).max(25)).max(10).optional(),
  moderatorUserIds: z.array(z.number().int().positive()).max(100).optional(),
  activeSubscribersCount: z.number().int().min(0).optional(),
  canceledSubscribersCount: z.number().int().min(0).optional(),
});

const refParamsSchema = z.object({ ref: userRefParamSchema });

/** Kick users and their channels. Setting channel state here emits nothing (a missed event, for reconciliation tests). */
export function controlUsersRoutes(deps: ControlDeps): Router {
  const { users, channels, images, clock } = deps;
  const router = Router();

  router.get('/users', async (_req, res) => {
    res.json({ success: true, data: (await users.list()).map((user) => userView(user, images)) });
  });

  router.post('/users', async (req, res) => {
    const body = parseBody(createUserSchema, req);
    const user = await users.create({
      username: body.username,
      userId: body.userId,
      email: body.email,
      isVerified: body.isVerified,
      usernameColor: body.usernameColor,
      channel: {
        description: body.description,
        streamTitle: body.streamTitle,
        categoryId: body.categoryId,
        language: body.language,
        isMature: body.isMature,
      },
    });
    res.status(201).json({ success: true, data: userView(user, images) });
  });

  router.get('/users/:ref', async (req, res) => {
    const { ref } = parseParams(refParamsSchema, req);
    res.json({ success: true, data: userView(await findUser(users, ref), images) });
  });

  router.get('/categories', (_req, res) => {
    res.json({ success: true, data: categories });
  });

  router.patch('/channels/:ref', async (req, res) => {
    const { ref } = parseParams(refParamsSchema, req);
    const body = parseBody(setChannelSchema, req);
    const owner = await findUser(users, ref);
    const isStarting = body.isLive === true && !owner.channel.isLive;
    const isEnding = body.isLive === false && owner.channel.isLive;
    const updated = await channels.setState(owner.userId, {
      ...body,
      ...(isStarting ? { startedAt: clock.now(), endedAt: null } : {}),
      ...(isEnding ? { endedAt: clock.now() } : {}),
    });
    res.json({ success: true, data: userView(updated, images) });
  });

  return router;
}
