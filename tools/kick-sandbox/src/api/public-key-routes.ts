import { Router } from 'express';
import type { Signer } from '../webhooks/signer';

/**
 * §7. No token is needed (KickDevDocs #63: Kick once answered 401 without one and fixed that in
 * March 2025), so webhook verification never depends on app credentials. Mounted before the
 * bearer check: a token, valid or not, is simply not looked at.
 */
export function publicKeyRoutes({ signer }: { signer: Signer }): Router {
  const router = Router();
  router.get('/public-key', (_req, res) => {
    res.json({ data: { public_key: signer.publicKeyPem() }, message: 'OK' });
  });
  return router;
}
