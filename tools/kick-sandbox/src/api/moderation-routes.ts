import { Router } from 'express';
import { z } from 'zod';
import { assertCanModerate, type Bans } from '../bans';
import type { KickUsers } from '../kick-users';
import { channelNotFound } from '../rules';
import { userCaller } from './auth';
import { parseKick } from './kick-errors';
import { bodyUserId } from './query';

const banSchema = z.object({
  broadcaster_user_id: bodyUserId,
  user_id: bodyUserId,
  // minutes, up to 7 days; absent = permanent
  duration: z.number().int().min(1).max(10080).optional(),
  reason: z.string().max(100).optional(),
});

const unbanSchema = z.object({ broadcaster_user_id: bodyUserId, user_id: bodyUserId });

/** §6: ban/timeout and unban (a JSON body on DELETE). Both answer 200 `{"data":{},"message":"OK"}` [?]. */
export function moderationRoutes({ bans, users }: { bans: Bans; users: KickUsers }): Router {
  const router = Router();

  async function moderatorOf(broadcasterUserId: number, userId: number) {
    const owner = await users.byId(broadcasterUserId);
    if (!owner) throw channelNotFound(broadcasterUserId);
    assertCanModerate(owner, userId);
    const moderator = await users.byId(userId);
    if (!moderator) throw channelNotFound(userId);
    return moderator;
  }

  router.post('/moderation/bans', async (req, res) => {
    const caller = userCaller(req, 'moderation:ban');
    const body = parseKick(banSchema, req.body);
    const moderator = await moderatorOf(body.broadcaster_user_id, caller.userId);
    await bans.ban({
      broadcasterUserId: body.broadcaster_user_id,
      userId: body.user_id,
      moderator,
      reason: body.reason ?? '',
      durationMinutes: body.duration,
      source: 'api',
    });
    res.json({ data: {}, message: 'OK' });
  });

  router.delete('/moderation/bans', async (req, res) => {
    const caller = userCaller(req, 'moderation:ban');
    const body = parseKick(unbanSchema, req.body);
    await moderatorOf(body.broadcaster_user_id, caller.userId);
    await bans.unban(body.broadcaster_user_id, body.user_id);
    res.json({ data: {}, message: 'OK' });
  });

  return router;
}
