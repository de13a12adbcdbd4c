import type { KickstandBus, Subscription } from '@kickstand/platform/bus';
import type { StreamAnalyticsCounter } from './stream-analytics';

/**
 * The consumer group of stream analytics: the service's shared group, not realtime's per-instance
 * ones, so each event is counted by one realtime instance only (the live fan-out needs every
 * instance to read every event; counting does not).
 */
export const analyticsConsumerGroup = 'realtime';

export async function subscribeAnalyticsEvents(
  bus: KickstandBus,
  analytics: StreamAnalyticsCounter,
): Promise<Subscription[]> {
  return [
    await bus.subscribe('chat.received', analyticsConsumerGroup, async (message) => analytics.countChat(message)),
    await bus.subscribe('command.executed', analyticsConsumerGroup, async (message) => analytics.countCommand(message)),
    await bus.subscribe('kick.event', analyticsConsumerGroup, (message) => analytics.countKickEvent(message)),
  ];
}
