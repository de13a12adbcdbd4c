import express, { Router, type RequestHandler, type Response } from 'express';
import { createErrorHandler } from '@kickstand/platform/http';
import { createKickWebhookDoor, type WebhookAnswer, type WebhookDeps } from './webhook-check';

export type { WebhookDeps } from './webhook-check';

export const webhookPath = '/api/kick/webhook';

/**
 * Kick's webhook door (kick-api.md §8.6, §8.10). It is mounted ahead of the platform app, with its
 * own raw-body parser, so that the signature is checked against the exact bytes before anything
 * parses them, and so that this hot path writes no request log line per delivery.
 *
 * Kick drops subscriptions whose deliveries keep failing (§8.7), so only three things are refused:
 * a body over the limit (413), a missing header or a signature that does not verify (401), and a
 * correctly signed delivery whose timestamp is more than 5 minutes off (401). Everything else is
 * answered 200: a delivery that cannot be used (not JSON, no broadcaster, unknown type or version,
 * a shape that still fails) is kept as a dead letter for the super admin to see and replay; a
 * channel nobody linked and a message id seen before are dropped; the rest is published.
 *
 * A 200 means the delivery is durable: in the bus, or (while the bus cannot take it within a
 * moment) in the spool on disk that forwards it to the bus in order (service.ts). Only when
 * neither can keep it (spool full, disk failing) is it answered 503, with the message id free
 * again, so a retry by Kick is processed. Kick is not known to retry (§8.7): that is a last resort.
 *
 * The checks and the answers are the door's (webhook-check.ts), which single-machine mode's front
 * door also serves without Express; what follows them is the intake's (webhook-intake.ts).
 */
export function kickWebhookRoutes(deps: WebhookDeps): Router {
  const door = createKickWebhookDoor(deps);
  const router = Router();

  const parseRaw = express.raw({ type: () => true, limit: door.bodyLimitBytes });
  // body-parser has read the rest of an oversized body (and dropped it) before it calls back
  const rawBodyOrTooLarge: RequestHandler = (req, res, next) => {
    parseRaw(req, res, (error?: unknown) => {
      if (isTooLarge(error)) answer(res, door.tooLarge());
      else next(error);
    });
  };

  router.post(webhookPath, rawBodyOrTooLarge, async (req, res) => {
    const receivedAt = deps.clock.now();
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    answer(res, await door.receive({ headers: req.headers, rawBody, receivedAt }));
  });

  // the rest of body-parser's refusals (an unknown Content-Encoding, an undecodable gzip body, …)
  router.use(createErrorHandler(deps.log));
  return router;
}

function answer(res: Response, given: WebhookAnswer): void {
  res.status(given.status).set(given.headers).json(given.body);
}

function isTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'type' in error && error.type === 'entity.too.large';
}
