import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { createUlidFactory } from '../ids';
import type { Notifier } from '../notifier';
import type { RealKick } from '../real-kick';
import type { DeliveryDoc, EventSubscriptionDoc, Repository } from '../repository';
import { rfc3339Seconds } from '../time';
import type { Deliverer } from './deliverer';
import { driftPayload, unknownDriftEventType, unknownEventPayload } from './drift';
import type { Faults } from './faults';

export interface EmittedEvent {
  type: string;
  broadcasterUserId: number;
  payload: unknown;
}

/**
 * Turns something that happened in a channel into one delivery per matching subscription (two
 * subscriptions to the same event → two deliveries with different message ids, as on Kick). The
 * deliveries are recorded before this returns; sending happens in the background.
 */
export interface Emitter {
  emit(event: EmittedEvent): Promise<DeliveryDoc[]>;
}

export function createEmitter(deps: {
  repo: Repository;
  deliverer: Deliverer;
  faults: Faults;
  realKick: RealKick;
  clock: Clock;
  notifier: Notifier;
  log: Logger;
}): Emitter {
  const { repo, deliverer, faults, realKick, clock, notifier, log } = deps;
  const ulid = createUlidFactory();

  /** Deliveries made per subscription, event type and version (real Kick's silent drop counts them). */
  const produced = new Map<string, number>();
  const producedKey = (subscriptionId: string, type: string, version: number) => `${subscriptionId} ${type} ${version}`;

  function record(
    subscription: EventSubscriptionDoc,
    event: { type: string; version: number; body: string },
    applied: string[],
  ): DeliveryDoc {
    const delivery = repo.deliveries.add({
      _id: ulid(clock.now().getTime()),
      messageId: ulid(clock.now().getTime()),
      subscriptionId: subscription._id,
      broadcasterUserId: subscription.broadcasterUserId,
      eventType: event.type,
      eventVersion: event.version,
      body: event.body,
      createdAt: clock.now(),
      faults: applied,
      state: applied.includes('drop') ? 'dropped' : 'pending',
      attempts: [],
    });
    const key = producedKey(subscription._id, event.type, event.version);
    produced.set(key, (produced.get(key) ?? 0) + 1);
    if (delivery.state === 'pending') deliverer.enqueue(delivery);
    return delivery;
  }

  /** Real Kick drops subscriptions without notice; the product only finds out by listing them. */
  async function dropWhenWornOut(subscription: EventSubscriptionDoc): Promise<void> {
    const limit = realKick.get().dropSubscriptionsAfterDeliveries;
    if (limit === null) return;
    const count = produced.get(producedKey(subscription._id, subscription.event, subscription.version)) ?? 0;
    if (count < limit) return;
    await repo.subscriptions.deleteOne({ _id: subscription._id });
    log.info({ subscriptionId: subscription._id, event: subscription.event }, 'subscription silently dropped');
  }

  return {
    async emit({ type, broadcasterUserId, payload }) {
      const subscriptions = await repo.subscriptions.find(
        { broadcasterUserId, event: type, version: 1 },
        { sort: { _id: 1 } },
      );
      const created: DeliveryDoc[] = [];
      for (const subscription of subscriptions) {
        const drawn = faults.draw(type);
        const drifts = realKick.drawDrift();
        const body = JSON.stringify(drifts.length > 0 ? driftPayload(payload, drifts) : payload);
        const bodyDrifts = drifts.filter((name) => name !== 'unknownEvent' && name !== 'unknownVersion');
        created.push(
          record(subscription, { type, version: subscription.version, body }, [
            ...drawn,
            ...bodyDrifts.map((name) => `drift:${name}`),
          ]),
        );
        // the extras ride on the same subscription: Kick sends what it sends, subscribed or not
        if (drifts.includes('unknownVersion')) {
          created.push(record(subscription, { type, version: 2, body }, ['drift:unknownVersion']));
        }
        if (drifts.includes('unknownEvent')) {
          const extra = JSON.stringify(unknownEventPayload(payload, rfc3339Seconds(clock.now())));
          created.push(
            record(subscription, { type: unknownDriftEventType, version: 1, body: extra }, ['drift:unknownEvent']),
          );
        }
        await dropWhenWornOut(subscription);
      }
      if (created.length > 0) notifier.notify('deliveries');
      return created;
    },
  };
}
