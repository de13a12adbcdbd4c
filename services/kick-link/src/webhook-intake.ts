import { wallClockMs } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { processMetrics } from '@kickstand/platform/metrics';
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

/**
 * kick-link's own intake, as a door in another thread reaches it. Single-machine mode's front door
 * answers Kick 200 as soon as it has handed a delivery over (docs/decisions/single-machine-two-cores.md),
 * so what happens to it here no longer reaches Kick.
 */
export interface KickLinkIntake extends WebhookIntake {
  /**
   * Processes a delivery Kick was already answered 200 for, as `accept` does. One it cannot keep
   * (the bus refused it, or a step threw) is kept as a dead letter instead, reason `not-kept: …`,
   * for the super administrator to replay (dead-letter-routes.ts), and logged as an error; if even
   * that fails, it is logged as lost. Never rejects.
   */
  acceptAcknowledged(delivery: VerifiedDelivery): Promise<void>;
}

type Kept = { isKept: true } | { isKept: false; error: unknown };

export function createWebhookIntake(deps: {
  processor: DeliveryProcessor;
  repo: KickLinkRepository;
  health: DeliveryHealthReporter;
  log: Logger;
}): KickLinkIntake {
  const { processor, repo, health, log } = deps;
  // the reply path's first two stages (docs/performance.md, "Where the reply latency goes")
  const handOffStage = processMetrics().replyStage.labels({ service: 'kick-link', stage: 'hand-off' });
  const intakeStage = processMetrics().replyStage.labels({ service: 'kick-link', stage: 'intake' });

  /** Publishes it or keeps its dead letter; `isKept: false` when the bus and its spool refused it. Throws when a dead letter cannot be written. */
  async function keep(delivery: VerifiedDelivery): Promise<Kept> {
    const { messageId, eventType } = delivery.headers;
    let outcome: DeliveryOutcome;
    const startedAtMs = wallClockMs();
    // from the door's receipt (another thread's clock in single-machine mode: the same wall clock)
    handOffStage.observe(Math.max(0, startedAtMs - delivery.receivedAt.getTime()) / 1000);
    try {
      outcome = await processor.process(delivery);
    } catch (error) {
      return { isKept: false, error };
    }
    intakeStage.observe((wallClockMs() - startedAtMs) / 1000);
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
    return { isKept: true };
  }

  return {
    refused(reason, signedBody) {
      // only a correctly signed (stale) body may name its channel: anyone can write a forged one
      const channel = reason === 'stale-timestamp' && signedBody ? channelOf(readJson(signedBody)) : null;
      health.deliveryRefused(channel, reason);
    },
    async accept(delivery) {
      const kept = await keep(delivery);
      if (kept.isKept) return 'kept';
      // the bus and the spool behind it both refused it (spool full, disk failing): the last resort
      log.error({ err: kept.error, messageId: delivery.headers.messageId }, 'webhook delivery could not be kept');
      return 'unavailable';
    },
    async acceptAcknowledged(delivery) {
      const { messageId, eventType } = delivery.headers;
      let error: unknown;
      try {
        const kept = await keep(delivery);
        if (kept.isKept) return;
        error = kept.error;
      } catch (thrown) {
        error = thrown;
      }
      // Kick was told 200 and will not send it again: the dead letters are where it can still be replayed
      const reason = `not-kept: ${error instanceof Error ? error.message : String(error)}`;
      // the body was signed by Kick (checked on arrival): its channel can be believed
      const broadcasterUserId = channelOf(readJson(delivery.rawBody));
      try {
        await repo.deadLetters.keep(deadLetterOf(delivery, reason, broadcasterUserId));
      } catch (keepError) {
        log.error(
          { err: error, keepError, messageId, eventType, broadcasterUserId },
          'webhook delivery lost: it could not be kept after Kick was answered 200, nor kept as a dead letter',
        );
        return;
      }
      health.deadLettered(broadcasterUserId, reason);
      log.error(
        { err: error, messageId, eventType, broadcasterUserId },
        'webhook delivery could not be kept after Kick was answered 200: kept as a dead letter, to be replayed',
      );
    },
  };
}
