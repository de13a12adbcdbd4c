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
      // Made once here, not per message: the wrapper below adds one `then` to the handler's promise
      // instead of an async function of its own awaiting it (a promise, its suspended frame and
      // the await's closures a delivery, ~400 bytes: docs/performance.md, "What the owner allocates").
      const countConsumed = () => consumed.inc();
      const countFailure = (error: unknown): never => {
        failures.inc();
        throw error;
      };
      const countLastFailure = (error: unknown): never => {
        failures.inc();
        deadLettered.inc();
        throw error;
      };
      return bus.subscribe(topic, group, (message, info) => {
        if (info.attempt === 1 && info.publishedAtMs !== undefined) {
          waited.observe(Math.max(0, wallClockMs() - info.publishedAtMs) / 1000);
        }
        const onFailure = info.attempt >= maxAttempts ? countLastFailure : countFailure;
        let handled: Promise<void>;
        try {
          handled = handler(message, info);
        } catch (error) {
          // a handler that throws before it returns a promise fails the same way
          return Promise.reject(error).catch(onFailure);
        }
        return handled.then(countConsumed, onFailure);
      });
    },
    subscribeDeadLetters: (group, handler) => bus.subscribeDeadLetters(group, handler),
    ping: () => bus.ping(),
    joining: () => bus.joining(),
    stop: () => bus.stop(),
  };
}
