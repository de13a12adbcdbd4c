import { Router } from 'express';
import { z } from 'zod';
import type { CallDoc, ChatMessageDoc, DeliveryDoc } from '../repository';
import type { ControlDeps } from './control-deps';
import { afterSeqSchema, limitSchema, parseControlQuery as query, waitForResults, waitMsSchema } from './control-kit';
import { banView, callView, chatView, deliveryView, subscriptionView } from './views';

const userIdSchema = z.coerce.number().int().positive();

const chatQuerySchema = z.object({
  broadcasterUserId: userIdSchema.optional(),
  afterSeq: afterSeqSchema,
  /** Exclusive, ISO 8601. */
  since: z.iso.datetime({ offset: true }).optional(),
  type: z.enum(['user', 'bot', 'viewer']).optional(),
  limit: limitSchema,
  waitMs: waitMsSchema,
});

const bansQuerySchema = z.object({
  broadcasterUserId: userIdSchema.optional(),
  afterSeq: afterSeqSchema,
  waitMs: waitMsSchema,
});

const deliveriesQuerySchema = z.object({
  broadcasterUserId: userIdSchema.optional(),
  eventType: z.string().min(1).max(100).optional(),
  state: z.enum(['pending', 'delivered', 'failed', 'dropped']).optional(),
  afterSeq: afterSeqSchema,
  limit: limitSchema,
  waitMs: waitMsSchema,
});

const callsQuerySchema = z.object({
  endpoint: z.string().min(1).max(50).optional(),
  afterSeq: afterSeqSchema,
  limit: limitSchema,
  waitMs: waitMsSchema,
});

const subscriptionsQuerySchema = z.object({ broadcasterUserId: userIdSchema.optional() });

/**
 * What the product did and what the sandbox sent. Listings are oldest first; `afterSeq` returns
 * only newer records and `waitMs` waits (up to 30 s) until there is at least one. Query names may
 * be camelCase or Kick's snake_case (`broadcaster_user_id`).
 */
export function controlInspectRoutes(deps: ControlDeps): Router {
  const { chat, bans, subscriptions, repo, notifier, clock } = deps;
  const router = Router();

  router.get('/chat', async (req, res) => {
    const q = query(chatQuerySchema, req);
    const since = q.since === undefined ? undefined : new Date(q.since);
    const messages = await waitForResults(notifier, 'chat', q.waitMs, () =>
      chat.list({ broadcasterUserId: q.broadcasterUserId, afterSeq: q.afterSeq, since, type: q.type, limit: q.limit }),
    );
    const replyTo = (message: ChatMessageDoc) =>
      message.replyToMessageId === null ? undefined : repo.chatMessages.byId(message.replyToMessageId);
    res.json({ success: true, data: messages.map((message) => chatView(message, replyTo(message))) });
  });

  router.get('/bans', async (req, res) => {
    const q = query(bansQuerySchema, req);
    const found = await waitForResults(notifier, 'bans', q.waitMs, () =>
      bans.list({ broadcasterUserId: q.broadcasterUserId, afterSeq: q.afterSeq }),
    );
    const now = clock.now();
    res.json({ success: true, data: found.map((ban) => banView(ban, now)) });
  });

  router.get('/subscriptions', async (req, res) => {
    const q = query(subscriptionsQuerySchema, req);
    const found = await subscriptions.list({ broadcasterUserId: q.broadcasterUserId });
    res.json({ success: true, data: found.map(subscriptionView) });
  });

  router.get('/deliveries', async (req, res) => {
    const q = query(deliveriesQuerySchema, req);
    const matches = (delivery: DeliveryDoc) =>
      (q.broadcasterUserId === undefined || delivery.broadcasterUserId === q.broadcasterUserId) &&
      (q.eventType === undefined || delivery.eventType === q.eventType) &&
      (q.state === undefined || delivery.state === q.state);
    const found = await waitForResults(notifier, 'deliveries', q.waitMs, () =>
      Promise.resolve(repo.deliveries.list(matches, q.afterSeq, q.limit ?? 200)),
    );
    res.json({ success: true, data: found.map(deliveryView) });
  });

  router.get('/calls', async (req, res) => {
    const q = query(callsQuerySchema, req);
    const matches = (call: CallDoc) => q.endpoint === undefined || call.endpoint === q.endpoint;
    const found = await waitForResults(notifier, 'calls', q.waitMs, () =>
      Promise.resolve(repo.calls.list(matches, q.afterSeq, q.limit ?? 200)),
    );
    res.json({ success: true, data: found.map(callView) });
  });

  return router;
}
