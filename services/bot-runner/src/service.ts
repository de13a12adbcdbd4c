import { randomUUID } from 'node:crypto';
import { builtInCommandNames, systemRandom, type Random } from '@kickstand/chat-language';
import type { Subscription } from '@kickstand/platform/bus';
import { createHttpApp } from '@kickstand/platform/http';
import { processMetrics } from '@kickstand/platform/metrics';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import { adminBotRoutes } from './admin-routes';
import { createEntryPublisher, subscribeBotRunnerEvents, subscribeView } from './events';
import { createBotsView, createCooldowns, createRecentReplies, loadBotsView } from './read-model';
import { createBotsRepository } from './repository';
import { botRoutes } from './routes';
import { createBotRunner } from './runner';

export { botMessages, type BotStatusView } from './bots';
export { commandCooldownMs } from './dispatch';

export interface BotRunnerOptions {
  /** For `{random:A-B}`; the system's by default. */
  random?: Random;
  /** Names this instance's bot.status group (`bot-runner.instance.<instanceId>`); a random UUID by default. */
  instanceId?: string;
  /** The built-in game commands left to the games service; `builtInCommandNames` of @kickstand/chat-language by default. */
  builtInNames?: ReadonlySet<string>;
  /** How often messages left in an outbox (a bus outage) are retried; 30 s by default. */
  outboxRetryMs?: number;
}

/** Bot on/off, the administrator's switch, and `$` command dispatch. */
export function createBotRunnerService(deps: PlatformDeps, options: BotRunnerOptions = {}): Service {
  const repo = createBotsRepository(deps.store);
  const view = createBotsView((count) => processMetrics().botsRunning.set({ service: deps.service }, count));
  const runner = createBotRunner({
    repo,
    view,
    publish: createEntryPublisher(deps.bus),
    clock: deps.clock,
    log: deps.log,
    ...(options.outboxRetryMs !== undefined ? { outboxRetryMs: options.outboxRetryMs } : {}),
  });
  const instanceId = options.instanceId ?? randomUUID();
  const eventDeps = {
    runner,
    repo,
    log: deps.log,
    dispatch: {
      bus: deps.bus,
      repo,
      view,
      cooldowns: createCooldowns(),
      replies: createRecentReplies(),
      builtInNames: options.builtInNames ?? builtInCommandNames,
      clock: deps.clock,
      random: options.random ?? systemRandom,
      log: deps.log,
    },
  };

  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    routes: [botRoutes({ runner, tokens: deps.tokens }), adminBotRoutes({ runner, tokens: deps.tokens })],
    readiness: platformReadiness(deps),
  });

  let subscriptions: Subscription[] = [];

  return {
    app,
    start: async () => {
      // the view's own subscription first, then the stored state: no change falls in between
      subscriptions = await subscribeView(deps.bus, instanceId, eventDeps);
      await loadBotsView(repo, view);
      await runner.startOutbox();
      subscriptions.push(...(await subscribeBotRunnerEvents(deps.bus, eventDeps)));
    },
    // only what start() began: in single-machine mode the bus and the store belong to the host
    stop: async () => {
      runner.stopOutbox();
      const started = subscriptions;
      subscriptions = [];
      await Promise.all(started.map((subscription) => subscription.stop()));
    },
  };
}
