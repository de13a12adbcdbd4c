import {
  type Subscription,
  subscribeBatchBodySchema,
  subscribeBodySchema,
  subscriptionParamsSchema,
  userIdParamsSchema,
  webhookMessages,
} from '@kickstand/api-contract';
import { Router, type Request, type Response } from 'express';
import { currentUser, requireAdmin, type TokenVerifier } from '@kickstand/platform/auth';
import { AppError, badRequest, notFound } from '@kickstand/platform/errors';
import { parseBody, parseParams } from '@kickstand/platform/http';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { ChatSubscriptionState } from '@kickstand/proto';
import type { AuditRecord, KickLinkPublisher } from './publisher';
import { KickApiError, type KickSubscription } from './kick-client';
import type { KickLinkRepository, LinkDoc } from './repository';
import type { RunningBots } from './running-bots';
import { chatEvent, subscribableEvents, type ChannelSubscriptions, type EnsureOutcome } from './subscriptions';

/** The spec's admin texts (§8): the HTTP contract's. */
export const adminMessages = webhookMessages;

/** The spec's Webhook subscription (§3): the HTTP contract's. */
export type SubscriptionView = Subscription;

const viewOf = (subscription: KickSubscription): SubscriptionView => ({
  id: subscription.id,
  event: subscription.event,
  status: 'active',
});

interface Target {
  userId: string;
  username: string;
  link: LinkDoc;
}

/** A Kick failure as the admin panel reads it: Kick's reason when it gave one, else the spec's text. */
class KickFailure extends Error {
  constructor(readonly reason: string | undefined) {
    super(reason ?? 'Kick failed');
  }
}

/**
 * The admin webhook calls (spec §7), all for super administrators. Subscriptions are managed with
 * the app token; each action is read-first (no duplicate subscriptions) and reported on
 * audit.recorded. Kick's refusals answer 502 with Kick's reason.
 */
export function adminWebhookRoutes(deps: {
  repo: KickLinkRepository;
  subscriptions: ChannelSubscriptions;
  publisher: KickLinkPublisher;
  runningBots: RunningBots;
  tokens: TokenVerifier;
  clock: Clock;
  log: Logger;
}): Router {
  const { repo, subscriptions, publisher, runningBots, tokens, clock, log } = deps;
  const router = Router();
  const admin = requireAdmin(tokens);

  async function targetOf(req: Request): Promise<Target> {
    const { id } = parseParams(userIdParamsSchema, req);
    const [link, known] = await Promise.all([repo.links.byUser(id), repo.knownUsers.get(id)]);
    if (known?.isDeleted) throw notFound(adminMessages.userNotFound);
    if (link) return { userId: id, username: known?.username ?? '', link };
    if (known) throw badRequest(adminMessages.noLinkedAccount);
    throw notFound(adminMessages.userNotFound);
  }

  /** Runs an action; Kick's failures become `{ success:false, error }` with 502. */
  async function act(res: Response, failureMessage: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof AppError && error.status !== 500) throw error;
      const reason =
        error instanceof KickFailure ? error.reason : error instanceof KickApiError ? error.reason : undefined;
      if (!(error instanceof KickFailure) && !(error instanceof KickApiError)) {
        log.warn({ err: error }, failureMessage);
      }
      res.status(502).json({ success: false, error: reason || failureMessage });
    }
  }

  async function audit(req: Request, target: Target, action: string, details: Record<string, string>) {
    const actor = currentUser(req);
    const record: AuditRecord = {
      actorUserId: actor.userId,
      actorUsername: actor.username,
      action,
      targetId: target.userId,
      targetUsername: target.username,
      details: { broadcasterUserId: target.link.kickUserId, kickUsername: target.link.kickUsername, ...details },
    };
    try {
      await publisher.audit(record);
    } catch (err) {
      // the action happened at Kick; a lost audit line must not turn it into a failure
      log.error({ err, action }, 'could not publish audit.recorded');
    }
  }

  /**
   * Without chat.message.sent the bot hears nothing: bot-runner is told an administrator removed
   * it (the streamer's dashboard says so), and the reconciler no longer puts it back, so the
   * administrator's choice holds until the streamer reconnects (a new START).
   */
  async function chatGone(target: Target, removed: readonly KickSubscription[]) {
    if (!removed.some((subscription) => subscription.event === chatEvent)) return;
    const running = await runningBots.get(target.userId);
    if (running?.isRunning) {
      await runningBots.record(target.userId, {
        isRunning: false,
        occurredAt: clock.now(),
        broadcasterUserId: target.link.kickUserId,
        reconcileAt: null,
      });
    }
    await publisher.chatSubscription({
      userId: target.userId,
      broadcasterUserId: target.link.kickUserId,
      state: ChatSubscriptionState.INACTIVE,
      isRemovedByAdmin: true,
    });
  }

  async function subscribe(req: Request, target: Target, events: readonly string[], action: string) {
    const outcome: EnsureOutcome = await subscriptions.ensure(target.link.kickUserId, events);
    const refused = outcome.refused[0];
    const changed = outcome.created.length > 0 || outcome.removedDuplicates.length > 0;
    // every action that succeeded is recorded, and a refused one too when it changed something
    if (!refused || changed) {
      await audit(req, target, action, {
        events: events.join(','),
        created: outcome.created.map((subscription) => subscription.event).join(','),
        subscriptionIds: outcome.created.map((subscription) => subscription.id).join(','),
        ...(outcome.removedDuplicates.length > 0
          ? { removedDuplicateIds: outcome.removedDuplicates.map((subscription) => subscription.id).join(',') }
          : {}),
      });
    }
    if (refused) throw new KickFailure(refused.reason);
    return {
      subscriptions: [...outcome.existing, ...outcome.created].map(viewOf),
      created: outcome.created.map((subscription) => subscription.event),
    };
  }

  router.get('/api/admin/users/:id/webhooks', admin, async (req, res) => {
    const target = await targetOf(req);
    await act(res, adminMessages.loadFailed, async () => {
      const [found, running] = await Promise.all([
        subscriptions.list(target.link.kickUserId),
        runningBots.get(target.userId),
      ]);
      // the admin panel names the bot an unsubscribe would deafen
      const bot = { isRunning: running?.isRunning ?? false, kickUsername: target.link.kickUsername };
      res.json({ success: true, data: { subscriptions: found.map(viewOf), bot } });
    });
  });

  router.post('/api/admin/users/:id/webhooks', admin, async (req, res) => {
    const target = await targetOf(req);
    const { event } = parseBody(subscribeBodySchema, req);
    await act(res, adminMessages.subscribeFailed, async () => {
      const data = await subscribe(req, target, [event], 'webhook.subscribed');
      res.json({ success: true, message: adminMessages.subscribed, data });
    });
  });

  router.post('/api/admin/users/:id/webhooks/subscribe-batch', admin, async (req, res) => {
    const target = await targetOf(req);
    const { events } = parseBody(subscribeBatchBodySchema, req);
    await act(res, adminMessages.subscribeSelectedFailed, async () => {
      const data = await subscribe(req, target, events, 'webhook.subscribed-batch');
      res.json({ success: true, message: adminMessages.subscribedSelected, data });
    });
  });

  router.post('/api/admin/users/:id/webhooks/subscribe-all', admin, async (req, res) => {
    const target = await targetOf(req);
    await act(res, adminMessages.subscribeAllFailed, async () => {
      const data = await subscribe(req, target, subscribableEvents, 'webhook.subscribed-all');
      res.json({ success: true, message: adminMessages.subscribedAll, data });
    });
  });

  router.post('/api/admin/users/:id/webhooks/unsubscribe-all', admin, async (req, res) => {
    const target = await targetOf(req);
    await act(res, adminMessages.unsubscribeAllFailed, async () => {
      const removed = await subscriptions.remove(target.link.kickUserId, () => true);
      await audit(req, target, 'webhook.unsubscribed-all', {
        events: removed.map((subscription) => subscription.event).join(','),
        subscriptionIds: removed.map((subscription) => subscription.id).join(','),
      });
      await chatGone(target, removed);
      res.json({ success: true, message: adminMessages.unsubscribedAll, data: { removed: removed.map(viewOf) } });
    });
  });

  router.delete('/api/admin/users/:id/webhooks/:subscriptionId', admin, async (req, res) => {
    const target = await targetOf(req);
    const { subscriptionId } = parseParams(subscriptionParamsSchema, req);
    await act(res, adminMessages.unsubscribeFailed, async () => {
      // only a subscription of this user's channel: the list is read first, then exactly that id goes
      const removed = await subscriptions.remove(
        target.link.kickUserId,
        (subscription) => subscription.id === subscriptionId,
      );
      const gone = removed[0];
      if (!gone) throw notFound(adminMessages.subscriptionNotFound);
      await audit(req, target, 'webhook.unsubscribed', { events: gone.event, subscriptionIds: gone.id });
      await chatGone(target, removed);
      res.json({ success: true, message: adminMessages.unsubscribed, data: { removed: [viewOf(gone)] } });
    });
  });

  return router;
}
