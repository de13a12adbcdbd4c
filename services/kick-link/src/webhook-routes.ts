import express, { Router, type RequestHandler } from 'express';
import type { Clock } from '@kickstand/platform/clock';
import { unauthorized } from '@kickstand/platform/errors';
import { createErrorHandler } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';
import type { WebhookIntake } from './webhook-intake';
import type { WebhookVerifier } from './webhook-verification';

export const webhookPath = '/api/kick/webhook';

export interface WebhookDeps {
  verifier: WebhookVerifier;
  /** Where a checked delivery goes: kick-link's own (webhook-intake.ts), or its hand-off from another thread. */
  intake: WebhookIntake;
  clock: Clock;
  log: Logger;
  bodyLimit: string;
}

const ok = { success: true } as const;
const unavailable = { success: false, error: 'The delivery could not be kept; try again shortly' } as const;

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
 * The checks and the answer are stateless and may run in another thread than kick-link (the front
 * door of single-machine mode); what follows them is the intake's (webhook-intake.ts).
 */
export function kickWebhookRoutes(deps: WebhookDeps): Router {
  const { verifier, intake, clock, log } = deps;
  const router = Router();

  const parseRaw = express.raw({ type: () => true, limit: deps.bodyLimit });
  const rawBodyOrTooLarge: RequestHandler = (req, res, next) => {
    parseRaw(req, res, (error?: unknown) => {
      if (isTooLarge(error)) intake.refused('too-large');
      next(error);
    });
  };

  router.post(webhookPath, rawBodyOrTooLarge, async (req, res) => {
    const receivedAt = clock.now();
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const verdict = await verifier.verify(req.headers, rawBody);
    if (!verdict.isValid) {
      if (verdict.reason === 'stale-timestamp') intake.refused('stale-timestamp', rawBody);
      else intake.refused('bad-signature');
      log.debug({ reason: verdict.problem }, 'webhook delivery refused');
      throw unauthorized('Invalid webhook signature');
    }
    const answer = await intake.accept({ headers: verdict.headers, rawBody, sentAt: verdict.sentAt, receivedAt });
    if (answer === 'unavailable') {
      res.status(503).set('Retry-After', '5').json(unavailable);
      return;
    }
    res.status(200).json(ok);
  });

  router.use(createErrorHandler(log));
  return router;
}

function isTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'type' in error && error.type === 'entity.too.large';
}
