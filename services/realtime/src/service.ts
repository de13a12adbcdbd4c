import type { Subscription } from '@kickstand/platform/bus';
import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import { createAnalyticsRepository } from './analytics/analytics-repository';
import { subscribeAnalyticsEvents } from './analytics/analytics-events';
import { analyticsRoutes } from './analytics/analytics-routes';
import { createStreamAnalytics } from './analytics/stream-analytics';
import { createChatLog } from './chat-log';
import { defaultInstanceId } from './config';
import { subscribeRealtimeEvents } from './events';
import { createRealtimeRepository } from './repository';
import { realtimeRoutes } from './routes';
import { createSocketServer } from './socket-server';

export { chatLogLimit, createChatLog, type ChatLog } from './chat-log';
export { createRealtimeRepository } from './repository';
// for tools/bench (bench:chatlog, bench:analytics-flush, bench:analytics-memory)
export { createAnalyticsRepository } from './analytics/analytics-repository';
export { createStreamAnalytics } from './analytics/stream-analytics';
export { realtimeConsumerGroup } from './events';
export { botUsername } from './payloads';
export { roomOf, unauthorizedMessage } from './socket-server';

export interface RealtimeOptions {
  /** Names the consumer group `realtime.instance.<instanceId>`: each instance reads every event. */
  instanceId: string;
}

/**
 * socket.io connections, per-user rooms and the last 100 chat lines: the bus events of a user
 * (chat, bot status, commands) reach that user's open dashboards. It also counts each channel's
 * stream analytics (analytics/, docs/analytics.md). `attach` hooks socket.io into the HTTP server;
 * `stop` closes the sockets and the subscriptions and writes the pending counts, not the HTTP server.
 * Without options the instance id is the host name (single-machine mode has one instance).
 */
export function createRealtimeService(
  deps: PlatformDeps,
  options: RealtimeOptions = { instanceId: defaultInstanceId() },
): Service {
  const repo = createRealtimeRepository(deps.store);
  const chatLog = createChatLog({ repo, log: deps.log });
  const analyticsRepo = createAnalyticsRepository(deps.store);
  const analytics = createStreamAnalytics({ repo: analyticsRepo, clock: deps.clock, log: deps.log });
  const sockets = createSocketServer({ tokens: deps.tokens, chatLog, log: deps.log });
  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    routes: [realtimeRoutes({ chatLog, tokens: deps.tokens }), analyticsRoutes({ analytics, tokens: deps.tokens })],
    readiness: platformReadiness(deps),
  });
  let subscriptions: Subscription[] = [];
  return {
    app,
    attach: (server) => sockets.attach(server),
    socketIo: sockets.entry,
    start: async () => {
      await repo.open();
      await analyticsRepo.createIndexes();
      subscriptions = [
        ...(await subscribeRealtimeEvents(deps.bus, options.instanceId, { sockets, chatLog, clock: deps.clock })),
        ...(await subscribeAnalyticsEvents(deps.bus, analytics)),
      ];
      analytics.start();
    },
    // only what start() and attach() began: in single-machine mode the bus and the store belong to the host
    stop: async () => {
      const started = subscriptions;
      subscriptions = [];
      await Promise.all(started.map((subscription) => subscription.stop()));
      sockets.close();
      await Promise.all([chatLog.flush(), analytics.stop()]);
    },
  };
}
