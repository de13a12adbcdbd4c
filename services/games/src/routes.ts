import { gamesSettingsBodySchema, type GamesSettings } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { parseBody } from '@kickstand/platform/http';
import { commandCatalog } from './catalog';
import type { GamesRepository } from './repository';

/**
 * GET /api/games/catalog (public: the gateway lets it through without a token) and the
 * streamer's own settings (bearer token).
 */
export function gamesRoutes(deps: { repo: GamesRepository; tokens: TokenVerifier; clock: Clock }): Router {
  const { repo, tokens, clock } = deps;
  const router = Router();

  router.get('/api/games/catalog', (_req, res) => {
    res.json({ success: true, data: commandCatalog });
  });

  router.use('/api/games/settings', requireUser(tokens));

  router.get('/api/games/settings', async (req, res) => {
    const saved = await repo.findSettings(currentUser(req).userId);
    const data: GamesSettings = { steamAccountId: saved?.steamAccountId ?? null };
    res.json({ success: true, data });
  });

  router.put('/api/games/settings', async (req, res) => {
    const body = parseBody(gamesSettingsBodySchema, req);
    const saved = await repo.saveSettings(currentUser(req).userId, body.steamAccountId, clock.now());
    const data: GamesSettings = { steamAccountId: saved.steamAccountId };
    res.json({ success: true, data });
  });

  return router;
}
