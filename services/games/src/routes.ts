import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { parseBody } from '@kickstand/platform/http';
import { commandCatalog } from './catalog';
import { toSteamAccountId } from './games/dota';
import type { GamesRepository } from './repository';

export const steamAccountIdMessage =
  'steamAccountId must be a Steam account id (32-bit, e.g. 70388657) or a 64-bit SteamID (e.g. "76561198030654385")';

/**
 * `steamAccountId`: the 32-bit account id (number or digits) or a 64-bit SteamID (digits; as a
 * JSON number it would lose precision, so a number must be a safe integer), or null to clear it.
 */
export const gamesSettingsBodySchema = z.strictObject({
  steamAccountId: z
    .union([z.string(), z.number(), z.null()], { error: steamAccountIdMessage })
    .transform((value, ctx) => {
      if (value === null) return null;
      if (typeof value === 'number' && !Number.isSafeInteger(value)) {
        ctx.addIssue({ code: 'custom', message: steamAccountIdMessage });
        return z.NEVER;
      }
      const accountId = toSteamAccountId(String(value));
      if (accountId === null) {
        ctx.addIssue({ code: 'custom', message: steamAccountIdMessage });
        return z.NEVER;
      }
      return accountId;
    }),
});
export type GamesSettingsBody = z.infer<typeof gamesSettingsBodySchema>;

/** What GET/PUT /api/games/settings answer in `data`. */
export interface GamesSettings {
  steamAccountId: number | null;
}

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
