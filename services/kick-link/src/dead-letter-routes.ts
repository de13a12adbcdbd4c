import {
  deadLetterListQuerySchema,
  deadLetterMessages,
  deadLetterParamsSchema,
  type DeadLetter,
  type ReplayResult,
} from '@kickstand/api-contract';
import { Router } from 'express';
import { requireAdmin, type TokenVerifier } from '@kickstand/platform/auth';
import type { Clock } from '@kickstand/platform/clock';
import { AppError, notFound } from '@kickstand/platform/errors';
import { parseParams, parseQuery } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';
import type { DeadLetterDoc, KickLinkRepository } from './repository';
import { deliveryOf, type DeliveryOutcome, type DeliveryProcessor } from './webhook-delivery';

export const deadLetterPath = '/api/admin/kick/dead-letters';

export { deadLetterMessages };

/** A dead letter as the admin panel shows it (the HTTP contract's). */
export type DeadLetterView = DeadLetter;
export type { ReplayResult };

export function deadLetterView(letter: DeadLetterDoc): DeadLetterView {
  const { headers } = letter;
  return {
    id: letter._id,
    eventType: headers.eventType,
    eventVersion: headers.eventVersion,
    broadcasterUserId: letter.broadcasterUserId,
    reason: letter.reason,
    receivedAt: letter.receivedAt.toISOString(),
    sentAt: letter.sentAt.toISOString(),
    replayedAt: letter.replayedAt ? letter.replayedAt.toISOString() : null,
    headers: {
      'Kick-Event-Message-Id': headers.messageId,
      'Kick-Event-Subscription-Id': headers.subscriptionId,
      'Kick-Event-Signature': headers.signature,
      'Kick-Event-Message-Timestamp': headers.timestamp,
      'Kick-Event-Type': headers.eventType,
      'Kick-Event-Version': headers.eventVersion,
    },
    body: letter.rawBody,
  };
}

/**
 * The dead letters of the webhook door, for super administrators: list them (newest first), replay
 * one (the same processing as a fresh delivery, without checking the signature and timestamp
 * again, which were checked on arrival), or discard one. A replay that uses the delivery (it is
 * published, or it turns out to be a duplicate or for a channel nobody linked) removes the dead
 * letter; one that still cannot use it answers 422 with the reason and keeps it.
 */
export function deadLetterRoutes(deps: {
  repo: KickLinkRepository;
  processor: DeliveryProcessor;
  tokens: TokenVerifier;
  clock: Clock;
  log: Logger;
}): Router {
  const { repo, processor, tokens, clock, log } = deps;
  const router = Router();
  const admin = requireAdmin(tokens);

  router.get(deadLetterPath, admin, async (req, res) => {
    const { page, limit } = parseQuery(deadLetterListQuerySchema, req);
    const [letters, total] = await Promise.all([
      repo.deadLetters.list({ skip: (page - 1) * limit, limit }),
      repo.deadLetters.count(),
    ]);
    res.json({
      success: true,
      data: {
        deadLetters: letters.map(deadLetterView),
        pagination: { page, limit, total, pages: Math.max(1, Math.ceil(total / limit)) },
      },
    });
  });

  router.post(`${deadLetterPath}/:id/replay`, admin, async (req, res) => {
    const { id } = parseParams(deadLetterParamsSchema, req);
    const letter = await repo.deadLetters.get(id);
    if (!letter) throw notFound(deadLetterMessages.notFound);
    const outcome: DeliveryOutcome = await processor.process(deliveryOf(letter));
    if (outcome.kind === 'unusable') {
      await repo.deadLetters.markReplayed(id, outcome.reason, clock.now());
      throw new AppError({
        code: 'dead-letter-unusable',
        status: 422,
        message: `${deadLetterMessages.stillUnusable}: ${outcome.reason}`,
      });
    }
    await repo.deadLetters.remove(id);
    log.info({ messageId: id, outcome: outcome.kind }, 'dead letter replayed');
    const result: ReplayResult = outcome.kind;
    res.json({ success: true, message: deadLetterMessages.replayed, data: { result } });
  });

  router.delete(`${deadLetterPath}/:id`, admin, async (req, res) => {
    const { id } = parseParams(deadLetterParamsSchema, req);
    if (!(await repo.deadLetters.remove(id))) throw notFound(deadLetterMessages.notFound);
    res.json({ success: true, message: deadLetterMessages.discarded });
  });

  return router;
}
