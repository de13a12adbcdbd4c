import type { Logger } from '@kickstand/platform/log';
import type { DeliveryHealthReporter, RefusalReason } from './delivery-health';
import type { KickLinkRepository } from './repository';
import { deadLetterOf, type DeliveryOutcome, type DeliveryProcessor, type VerifiedDelivery } from './webhook-delivery';
import { channelOf, readJson } from './webhook-payloads';

/**
 * What Kick is answered for a delivery that passed the door's checks: 200 (`kept`: published,
 * dropped as a duplicate or an unlinked channel, or kept as a dead letter) or 503 (`unavailable`:
 * neither the bus nor its spool could keep it).
 */
export type IntakeAnswer = 'kept' | 'unavailable';

/**
 * The webhook door's stateful half, after the stateless checks (raw body, size limit, signature,
 * timestamp: webhook-routes.ts). It owns the store and the bus, so it runs where kick-link does;
 * the checks may run in another thread (single-machine mode's front door) and reach it by message.
 */
export interface WebhookIntake {
  /** Counts a refused delivery in delivery health; the raw body only for a correctly signed stale one (its channel). */
  refused(reason: RefusalReason, signedBody?: Buffer): void;
  /** Processes a verified delivery: publishes it once, keeps a dead letter, reports delivery health. */
  accept(delivery: VerifiedDelivery): Promise<IntakeAnswer>;
}

export function createWebhookIntake(deps: {
  processor: DeliveryProcessor;
  repo: KickLinkRepository;
  health: DeliveryHealthReporter;
  log: Logger;
}): WebhookIntake {
  const { processor, repo, health, log } = deps;
  return {
    refused(reason, signedBody) {
      // only a correctly signed (stale) body may name its channel: anyone can write a forged one
      const channel = reason === 'stale-timestamp' && signedBody ? channelOf(readJson(signedBody)) : null;
      health.deliveryRefused(channel, reason);
    },
    async accept(delivery) {
      const { messageId, eventType } = delivery.headers;
      let outcome: DeliveryOutcome;
      try {
        outcome = await processor.process(delivery);
      } catch (err) {
        // the bus and the spool behind it both refused it (spool full, disk failing): the last resort
        log.error({ err, messageId }, 'webhook delivery could not be kept');
        return 'unavailable';
      }
      if (outcome.broadcasterUserId !== null) {
        health.deliveryAccepted(outcome.broadcasterUserId, delivery.sentAt, delivery.receivedAt);
      }
      if (outcome.kind === 'unusable') {
        await repo.deadLetters.keep(deadLetterOf(delivery, outcome.reason, outcome.broadcasterUserId));
        health.deadLettered(outcome.broadcasterUserId, outcome.reason);
        log.info({ messageId, eventType, reason: outcome.reason }, 'webhook delivery kept as a dead letter');
      } else if (outcome.kind !== 'published') {
        log.debug({ messageId, outcome: outcome.kind }, 'webhook delivery dropped');
      }
      return 'kept';
    },
  };
}
