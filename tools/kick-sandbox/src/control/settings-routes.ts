import { Router } from 'express';
import { z } from 'zod';
import { parseBody } from '@kickstand/platform/http';
import { appSettingsPatchSchema } from '../app-settings';
import { faultSettingsPatchSchema } from '../webhooks/faults';
import type { ControlDeps } from './control-deps';
import { parseControlQuery } from './control-kit';

/** Picks tokens by value, by listing id, by owner or by kind; at least one. */
const tokenSelectorSchema = z
  .strictObject({
    token: z.string().min(1).max(200).optional(),
    id: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'id is a token id from GET /sandbox/api/tokens')
      .optional(),
    userId: z.number().int().positive().optional(),
    kind: z.enum(['access', 'refresh']).optional(),
  })
  .refine((selector) => Object.values(selector).some((value) => value !== undefined), {
    message: 'name the tokens: token, id, userId and/or kind',
  });

const tokensQuerySchema = z.object({
  userId: z.coerce.number().int().positive().optional(),
  kind: z.enum(['access', 'refresh']).optional(),
});

/** The app registration, faults, tokens and the signing key. */
export function controlSettingsRoutes(deps: ControlDeps): Router {
  const { app, faults, tokens, signer, subscriptions } = deps;
  const router = Router();

  const appView = () => ({
    appId: app.appId(),
    clientId: app.clientId,
    name: app.name,
    redirectUris: app.redirectUris,
    botUsername: app.botUsername,
    ...app.settings(),
  });

  router.get('/app', (_req, res) => {
    res.json({ success: true, data: appView() });
  });

  router.patch('/app', async (req, res) => {
    const body = parseBody(appSettingsPatchSchema, req);
    const wasEnabled = app.settings().isWebhookEnabled;
    app.patch(body);
    // Kick: switching webhooks off unsubscribes the app from every event (since 19 Dec 2025)
    if (wasEnabled && body.isWebhookEnabled === false) await subscriptions.removeAll();
    res.json({ success: true, data: appView() });
  });

  router.get('/faults', (_req, res) => {
    res.json({ success: true, data: faults.get() });
  });

  router.patch('/faults', (req, res) => {
    res.json({ success: true, data: faults.patch(parseBody(faultSettingsPatchSchema, req)) });
  });

  router.delete('/faults', (_req, res) => {
    res.json({ success: true, data: faults.reset() });
  });

  router.get('/tokens', async (req, res) => {
    const q = parseControlQuery(tokensQuerySchema, req);
    res.json({ success: true, data: await tokens.list(q) });
  });

  router.post('/tokens/expire', async (req, res) => {
    const count = await tokens.expire(parseBody(tokenSelectorSchema, req));
    res.json({ success: true, data: { count } });
  });

  router.post('/tokens/invalidate', async (req, res) => {
    const count = await tokens.invalidate(parseBody(tokenSelectorSchema, req));
    res.json({ success: true, data: { count } });
  });

  router.get('/signing-key', (_req, res) => {
    res.json({ success: true, data: { publicKey: signer.publicKeyPem() } });
  });

  router.post('/signing-key/rotate', async (_req, res) => {
    res.json({ success: true, data: { publicKey: await signer.rotate() } });
  });

  return router;
}
