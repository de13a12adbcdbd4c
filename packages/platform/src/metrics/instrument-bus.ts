import type { Bus, TopicRegistry } from '../bus/bus';
import type { Metrics } from './metrics';

/**
 * Counts what a service publishes and consumes, without touching the adapters. A handler that
 * throws on its last allowed attempt is what the adapters dead-letter, so that is counted too.
 */
export function instrumentBus<R extends TopicRegistry>(
  bus: Bus<R>,
  service: string,
  metrics: Metrics,
  maxAttempts: number,
): Bus<R> {
  return {
    publish: async (topic, key, message) => {
      await bus.publish(topic, key, message);
      metrics.busPublished.inc({ service, topic });
    },
    subscribe: (topic, group, handler) =>
      bus.subscribe(topic, group, async (message, info) => {
        try {
          await handler(message, info);
        } catch (error) {
          metrics.busHandlerFailures.inc({ service, topic, group });
          if (info.attempt >= maxAttempts) metrics.busDeadLettered.inc({ service, topic, group });
          throw error;
        }
        metrics.busConsumed.inc({ service, topic, group });
      }),
    subscribeDeadLetters: (group, handler) => bus.subscribeDeadLetters(group, handler),
    ping: () => bus.ping(),
    joining: () => bus.joining(),
    stop: () => bus.stop(),
  };
}
