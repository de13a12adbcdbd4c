import type { Clock } from '@kickstand/platform/clock';
import { createUlidFactory } from '../ids';
import type { Notifier } from '../notifier';
import type { DeliveryDoc, Repository } from '../repository';
import type { Deliverer } from './deliverer';
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
  clock: Clock;
  notifier: Notifier;
}): Emitter {
  const { repo, deliverer, faults, clock, notifier } = deps;
  const ulid = createUlidFactory();
  return {
    async emit({ type, broadcasterUserId, payload }) {
      const subscriptions = await repo.subscriptions.find(
        { broadcasterUserId, event: type, version: 1 },
        { sort: { _id: 1 } },
      );
      const body = JSON.stringify(payload);
      const created: DeliveryDoc[] = [];
      for (const subscription of subscriptions) {
        const drawn = faults.draw(type);
        const delivery = await repo.deliveries.insertOne({
          _id: ulid(clock.now().getTime()),
          seq: repo.nextSeq('deliveries'),
          messageId: ulid(clock.now().getTime()),
          subscriptionId: subscription._id,
          broadcasterUserId,
          eventType: type,
          eventVersion: subscription.version,
          body,
          createdAt: clock.now(),
          faults: drawn,
          state: drawn.includes('drop') ? 'dropped' : 'pending',
          attempts: [],
        });
        created.push(delivery);
        if (delivery.state === 'pending') deliverer.enqueue(delivery);
      }
      if (created.length > 0) notifier.notify('deliveries');
      return created;
    },
  };
}
