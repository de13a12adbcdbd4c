import { Router } from 'express';
import { z } from 'zod';
import type { EventSubscriptions } from '../event-subscriptions';
import type { KickUsers } from '../kick-users';
import { channelNotFound } from '../rules';
import { appOrUserCaller, asUserCaller } from './auth';
import { kickInvalidRequest, parseKick } from './kick-errors';
import { presentSubscription } from './presenters';
import { bodyUserId, queryUserId, repeatable } from './query';
import { ulidPattern } from '../ids';

const listQuerySchema = z.object({ broadcaster_user_id: queryUserId.optional() });

const subscribeSchema = z.object({
  broadcaster_user_id: bodyUserId.optional(),
  // only "webhook" exists; leaving it out is a 400 on Kick (kick-api.md §8.4)
  method: z.literal('webhook'),
  events: z
    .array(z.object({ name: z.string().min(1).max(100), version: z.number().int().min(0) }))
    .min(1)
    .max(100),
});

const deleteQuerySchema = z.object({
  id: repeatable(z.string().regex(ulidPattern)).pipe(z.array(z.string()).max(100)),
});

/**
 * §8.3–8.5. An app token works on any channel (named in the body); a user token only on its own
 * channel, whatever broadcaster_user_id says (§8.2).
 */
export function subscriptionsRoutes(deps: { subscriptions: EventSubscriptions; users: KickUsers }): Router {
  const { subscriptions, users } = deps;
  const router = Router();

  router.get('/events/subscriptions', async (req, res) => {
    const caller = appOrUserCaller(req, 'events:subscribe');
    const query = parseKick(listQuerySchema, req.query);
    const own = asUserCaller(caller);
    if (own && query.broadcaster_user_id !== undefined && query.broadcaster_user_id !== own.userId) {
      res.json({ data: [], message: 'OK' });
      return;
    }
    const found = await subscriptions.list({ broadcasterUserId: own?.userId ?? query.broadcaster_user_id });
    res.json({ data: found.map(presentSubscription), message: 'OK' });
  });

  router.post('/events/subscriptions', async (req, res) => {
    const caller = appOrUserCaller(req, 'events:subscribe');
    const body = parseKick(subscribeSchema, req.body);
    const own = asUserCaller(caller);
    const broadcasterUserId = own?.userId ?? body.broadcaster_user_id;
    if (broadcasterUserId === undefined) throw kickInvalidRequest();
    if (!(await users.byId(broadcasterUserId))) throw channelNotFound(broadcasterUserId);
    const results = await subscriptions.subscribe(broadcasterUserId, body.events);
    res.json({ data: results, message: 'OK' });
  });

  router.delete('/events/subscriptions', async (req, res) => {
    const caller = appOrUserCaller(req, 'events:subscribe');
    const query = parseKick(deleteQuerySchema, req.query);
    await subscriptions.remove(query.id, asUserCaller(caller)?.userId);
    res.status(204).end();
  });

  return router;
}
