import { healthListQuerySchema, noQuerySchema, type DeliveryHealthList } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireAdmin, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { parseQuery } from '@kickstand/platform/http';
import type { Store } from '@kickstand/platform/store';
import { deliveryHealthDocs, unattributedId, type StoredDeliveryHealth } from './delivery-health-store';
import { defaultHealthRule, unattributedViewOf, viewOf, type HealthRule } from './delivery-health-view';
import type { KickLinkRepository } from './repository';
import type { RunningBots } from './running-bots';

export { maxHealthPageSize } from '@kickstand/api-contract';

export type HealthList = DeliveryHealthList;

/**
 * Delivery health: the streamer's own channel (signed in) and every linked channel for super
 * administrators, with `?unhealthy=true` for the unhealthy ones only. The list is built in memory
 * from the links (one per channel) and the health documents: the unhealthy rule depends on the
 * time, so it cannot be a stored index; a few thousand channels fit easily.
 */
export function deliveryHealthRoutes(deps: {
  store: Store;
  repo: KickLinkRepository;
  runningBots: RunningBots;
  tokens: TokenVerifier;
  clock: Clock;
  /** This instance's gathered reports: written before a view is read, so the view is current. */
  stored: Pick<StoredDeliveryHealth, 'flush' | 'flushChannel'>;
  rule?: HealthRule;
}): Router {
  const { repo, runningBots, tokens, clock, rule = defaultHealthRule } = deps;
  const docs = deliveryHealthDocs(deps.store);
  const router = Router();

  router.get('/api/platform/kick/delivery-health', requireUser(tokens), async (req, res) => {
    parseQuery(noQuerySchema, req);
    const { userId } = currentUser(req);
    const link = await repo.links.byUser(userId);
    if (!link) {
      res.json({ success: true, data: { hasKickAccount: false, health: null } });
      return;
    }
    await deps.stored.flushChannel(link.kickUserId);
    const [doc, bot] = await Promise.all([docs.findOne({ _id: link.kickUserId }), runningBots.get(userId)]);
    const health = viewOf(link.kickUserId, link.kickUsername, doc, bot, clock.now(), rule);
    res.json({ success: true, data: { hasKickAccount: true, health } });
  });

  router.get('/api/admin/kick/delivery-health', requireAdmin(tokens), async (req, res) => {
    const { page, limit, unhealthy } = parseQuery(healthListQuerySchema, req);
    await deps.stored.flush();
    const [links, healthDocs, bots] = await Promise.all([repo.links.all(), docs.find({}), runningBots.all()]);
    const docById = new Map(healthDocs.map((doc) => [doc._id, doc]));
    const botByUser = new Map(bots.map((bot) => [bot._id, bot]));
    const now = clock.now();
    const views = links
      .map((link) =>
        viewOf(
          link.kickUserId,
          link.kickUsername,
          docById.get(link.kickUserId) ?? null,
          botByUser.get(link._id) ?? null,
          now,
          rule,
        ),
      )
      .filter((view) => !unhealthy || !view.isHealthy)
      .sort(
        (a, b) =>
          a.kickUsername.localeCompare(b.kickUsername) || a.broadcasterUserId.localeCompare(b.broadcasterUserId),
      );
    const data: HealthList = {
      channels: views.slice((page - 1) * limit, page * limit),
      pagination: { page, limit, total: views.length, pages: Math.ceil(views.length / limit) },
      unattributed: unattributedViewOf(docById.get(unattributedId) ?? null),
    };
    res.json({ success: true, data });
  });

  return router;
}
