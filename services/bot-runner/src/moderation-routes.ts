import {
  moderationFiltersSchema,
  moderationLogLimit,
  moderationLogParamsSchema,
  moderationMessages,
  moderationScopes,
} from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { KickstandBus } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import { conflict, notFound } from '@kickstand/platform/errors';
import { parseBody, parseParams } from '@kickstand/platform/http';
import { anyFilterOn } from './filters';
import { requestUndo } from './moderation';
import { moderationLogView, type ModerationRepository } from './moderation-repository';

/** The moderation scopes the link lacks; unknown scopes (a link made before the filters) lack them all. */
export const missingModerationScopes = (granted: readonly string[] | undefined): string[] =>
  moderationScopes.filter((scope) => !(granted ?? []).includes(scope));

/** The signed-in streamer's filters and moderation log. */
export function moderationRoutes(deps: {
  repo: ModerationRepository;
  bus: KickstandBus;
  tokens: TokenVerifier;
  clock: Clock;
}): Router {
  const { repo } = deps;
  const router = Router();
  router.use('/api/moderation', requireUser(deps.tokens));

  router.get('/api/moderation/filters', async (req, res) => {
    const { userId } = currentUser(req);
    const missingScopes = missingModerationScopes(await repo.scopes(userId));
    res.json({ success: true, data: { filters: await repo.filters(userId), missingScopes } });
  });

  router.put('/api/moderation/filters', async (req, res) => {
    const filters = parseBody(moderationFiltersSchema, req);
    const { userId } = currentUser(req);
    const missingScopes = missingModerationScopes(await repo.scopes(userId));
    // asked only now: a filter switched on needs Kick's moderation scopes (the UI offers the grant)
    if (anyFilterOn(filters) && missingScopes.length > 0) throw conflict(moderationMessages.missingScope);
    await repo.saveFilters(userId, filters);
    res.json({ success: true, message: moderationMessages.saved, data: { filters, missingScopes } });
  });

  router.get('/api/moderation/log', async (req, res) => {
    const entries = await repo.log(currentUser(req).userId, moderationLogLimit);
    res.json({ success: true, data: entries.map(moderationLogView) });
  });

  router.post('/api/moderation/log/:id/undo', async (req, res) => {
    const { id } = parseParams(moderationLogParamsSchema, req);
    const entry = await repo.logEntry(id);
    if (!entry || entry.userId !== currentUser(req).userId) throw notFound(moderationMessages.notFound);
    if (entry.action === 'delete') throw conflict(moderationMessages.notUndoable);
    if (entry.status === 'undone' || entry.isUndoRequested) throw conflict(moderationMessages.alreadyUndone);
    const updated = await requestUndo({ bus: deps.bus, repo, clock: deps.clock }, entry);
    res.json({ success: true, message: moderationMessages.undone, data: moderationLogView(updated) });
  });

  return router;
}
