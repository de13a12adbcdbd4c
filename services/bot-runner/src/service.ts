import { randomUUID } from 'node:crypto';
import { builtInCommandNames, systemRandom, type Random } from '@kickstand/chat-language';
import type { Subscription } from '@kickstand/platform/bus';
import { createHttpApp } from '@kickstand/platform/http';
import { processMetrics } from '@kickstand/platform/metrics';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import { adminBotRoutes } from './admin-routes';
import { createChannelsRepository } from './channels';
import { counterRoutes } from './counter-routes';
import { createCountersRepository } from './counters';
import { createEventPoster, eventBatchWindowMs } from './event-poster';
import { eventRoutes } from './event-routes';
import { createEventSettingsRepository } from './event-settings';
import { createEntryPublisher, subscribeBotRunnerEvents, subscribeView } from './events';
import { createBotsView, createCooldowns, createRecentReplies, loadBotsView } from './read-model';
import { createBotsRepository } from './repository';
import { botRoutes } from './routes';
import { createBotRunner } from './runner';
import { subscribeStreamEvents } from './stream-events';
import { timerRoutes } from './timer-routes';
import { createTimerScheduler, timerLeaseTtlMs, timerTickMs } from './timer-scheduler';
import { createTimersRepository } from './timers';
import { createLease } from './lease';
import { createModerationMemory, subscribeModerationEvents } from './moderation';
import { createModerationRepository } from './moderation-repository';
import { moderationRoutes } from './moderation-routes';
import { createPermitIndexes, createPermits } from './permits';

export { botMessages, type BotStatusView } from './bots';
export { commandCooldownMs } from './dispatch';
export { botRunnerSettingsSchema, timerMinuteMsOf } from './config';

export interface BotRunnerOptions {
  /** For `{random:A-B}`; the system's by default. */
  random?: Random;
  /** Names this instance's bot.status group (`bot-runner.instance.<instanceId>`); a random UUID by default. */
  instanceId?: string;
  /** The built-in game commands left to the games service; `builtInCommandNames` of @kickstand/chat-language by default. */
  builtInNames?: ReadonlySet<string>;
  /** How often messages left in an outbox (a bus outage) are retried; 30 s by default. */
  outboxRetryMs?: number;
  /**
   * How long a timer's "minute" is: 60 000 ms. Only the sandbox's e2e runs shorten it
   * (TIMER_MINUTE_MS), so a timer of 5 minutes posts within seconds without lowering the 5-minute minimum.
   */
  timerMinuteMs?: number;
  /** How often the timer loop runs; 15 s by default. */
  timerTickMs?: number;
  /** Event messages: a burst of one kind within this long is one line; 5 s by default. */
  eventBatchWindowMs?: number;
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
  const counters = createCountersRepository(deps.store);
  const channels = createChannelsRepository(deps.store);
  const timers = createTimersRepository(deps.store);
  const moderation = createModerationRepository(deps.store, { clock: deps.clock });
  const timerMinuteMs = options.timerMinuteMs ?? 60_000;
  // a shortened minute (sandbox e2e) shortens the loop with it: a quarter of a timer minute, 15 s in production
  const tickMs = options.timerTickMs ?? Math.min(timerTickMs, Math.max(250, timerMinuteMs / 4));
  const scheduler = createTimerScheduler({
    channels,
    timers,
    botOf: (userId) => view.get(userId),
    bus: deps.bus,
    lease: createLease({
      store: deps.store,
      name: 'bot-runner.timers',
      owner: instanceId,
      ttlMs: Math.max(timerLeaseTtlMs, 3 * tickMs),
      clock: deps.clock,
    }),
    clock: deps.clock,
    log: deps.log,
    minuteMs: timerMinuteMs,
    tickMs,
    ...(options.outboxRetryMs !== undefined ? { outboxRetryMs: options.outboxRetryMs } : {}),
  });
  const eventSettings = createEventSettingsRepository(deps.store);
  const poster = createEventPoster({
    channels,
    settings: eventSettings,
    botOf: (userId) => view.get(userId),
    posts: scheduler,
    clock: deps.clock,
    log: deps.log,
    windowMs: options.eventBatchWindowMs ?? eventBatchWindowMs,
  });
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
      templateInputs: { counters, channels, clock: deps.clock },
    },
  };

  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    routes: [
      botRoutes({ runner, tokens: deps.tokens }),
      adminBotRoutes({ runner, tokens: deps.tokens }),
      counterRoutes({ counters, tokens: deps.tokens, clock: deps.clock }),
      timerRoutes({ timers, channels, tokens: deps.tokens, clock: deps.clock }),
      eventRoutes({ settings: eventSettings, channels, tokens: deps.tokens, clock: deps.clock }),
      moderationRoutes({ repo: moderation, bus: deps.bus, tokens: deps.tokens, clock: deps.clock }),
    ],
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
      subscriptions.push(
        ...(await subscribeStreamEvents(deps.bus, { channels, scheduler, poster, clock: deps.clock, log: deps.log })),
      );
      await createPermitIndexes(deps.store);
      subscriptions.push(
        ...(await subscribeModerationEvents(deps.bus, {
          bus: deps.bus,
          repo: moderation,
          view,
          memory: createModerationMemory(),
          permits: createPermits(deps.store, deps.clock),
          clock: deps.clock,
          log: deps.log,
        })),
      );
      await scheduler.start();
      await poster.start();
    },
    // only what start() began: in single-machine mode the bus and the store belong to the host
    stop: async () => {
      runner.stopOutbox();
      poster.stop();
      await scheduler.stop();
      const started = subscriptions;
      subscriptions = [];
      await Promise.all(started.map((subscription) => subscription.stop()));
    },
  };
}
