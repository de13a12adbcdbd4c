import { Router } from 'express';
import type { Signer } from '../webhooks/signer';
import { callerOrThrow } from './auth';

/** §7. Whether Kick wants a token here is not stated [?]; the sandbox asks for one (any kind), the stricter reading. */
export function publicKeyRoutes({ signer }: { signer: Signer }): Router {
  const router = Router();
  router.get('/public-key', (req, res) => {
    callerOrThrow(req);
    res.json({ data: { public_key: signer.publicKeyPem() }, message: 'OK' });
  });
  return router;
}
