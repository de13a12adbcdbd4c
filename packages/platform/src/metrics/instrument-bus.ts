import type { Bus, TopicRegistry } from '../bus/bus';
import { wallClockMs } from '../clock/clock';
import type { Metrics } from './metrics';

/** A counter bound to its labels once (prom-client's `labels()` child), so counting allocates nothing. */
interface BoundCounter {
  inc(): void;
}

/**
 * Counts what a service publishes and consumes, without touching the adapters. A handler that
 * throws on its last allowed attempt is what the adapters dead-letter, so that is counted too.
 *
 * The counters are bound to their labels once per topic (publish) and once per subscription
 * (consume) rather than given a labels object on every message.
 */
export function instrumentBus<R extends TopicRegistry>(
  bus: Bus<R>,
  service: string,
  metrics: Metrics,
  maxAttempts: number,
): Bus<R> {
  const publishedByTopic = new Map<string, BoundCounter>();
  const publishedOf = (topic: string): BoundCounter => {
    let counter = publishedByTopic.get(topic);
    if (!counter) {
      counter = metrics.busPublished.labels({ service, topic });
      publishedByTopic.set(topic, counter);
    }
    return counter;
  };
  return {
    publish: async (topic, key, message) => {
      await bus.publish(topic, key, message);
      publishedOf(topic).inc();
    },
    subscribe: (topic, group, handler) => {
      const labels = { service, topic, group };
      const consumed = metrics.busConsumed.labels(labels);
      const failures = metrics.busHandlerFailures.labels(labels);
      const deadLettered = metrics.busDeadLettered.labels(labels);
      const waited = metrics.busWait.labels(labels);
      return bus.subscribe(topic, group, async (message, info) => {
        if (info.attempt === 1 && info.publishedAtMs !== undefined) {
          waited.observe(Math.max(0, wallClockMs() - info.publishedAtMs) / 1000);
        }
        try {
          await handler(message, info);
        } catch (error) {
          failures.inc();
          if (info.attempt >= maxAttempts) deadLettered.inc();
          throw error;
        }
        consumed.inc();
      });
    },
    subscribeDeadLetters: (group, handler) => bus.subscribeDeadLetters(group, handler),
    ping: () => bus.ping(),
    joining: () => bus.joining(),
    stop: () => bus.stop(),
  };
}
