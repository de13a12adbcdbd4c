import { hostname } from 'node:os';
import { systemRandom, type Random } from '@kickstand/chat-language';
import type { Subscription } from '@kickstand/platform/bus';
import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import { createGamesOutboxRelay, subscribeGamesEvents } from './events';
import { dotaHeroes, type Hero } from './games/dota';
import { createOpenDotaClient, defaultOpenDotaUrl } from './opendota-client';
import { createPlay } from './play';
import { createGamesRepository } from './repository';
import { gamesRoutes } from './routes';
import { createScheduler } from './scheduler';

export { commandCatalog, gameDurationLimits } from './catalog';
export type { CatalogCategory, CatalogCommand, CommandCatalog } from './catalog';
export { parseChatIntent, type ChatIntent } from './chat-commands';
export type { GamesSettings, GamesSettingsBody } from '@kickstand/api-contract';
export { defaultOpenDotaUrl } from './opendota-client';

export interface GamesServiceOptions {
  /** Boss HP, weapons and damage; node:crypto by default, scripted in tests. */
  random?: Random;
  /** OpenDota's API base URL (OPENDOTA_URL); the public https://api.opendota.com/api by default. */
  openDotaUrl?: string;
  /** OpenDota request timeout; 3 s by default. */
  openDotaTimeoutMs?: number;
  /** The scheduler's lease holder name (INSTANCE_ID); the host name by default. */
  instanceId?: string;
  /** How often due games are ticked; 1000 ms by default, 0 for no timer (tests call tick()). */
  tickIntervalMs?: number;
  /** The hero list ($hero); dotaconstants' by default. */
  heroes?: () => readonly Hero[];
}

export interface GamesService extends Service {
  /** One scheduler pass now, by the injected clock (tests step a fake clock, then call it). */
  tick(): Promise<void>;
}

/** Raid boss, guess my balance and Dota 2 lookups: chat.received in, chat.send and game.event out. */
export function createGamesService(deps: PlatformDeps, options: GamesServiceOptions = {}): GamesService {
  const repo = createGamesRepository(deps.store);
  const relay = createGamesOutboxRelay({ bus: deps.bus, repo, log: deps.log });
  const play = createPlay({
    repo,
    relay,
    clock: deps.clock,
    random: options.random ?? systemRandom,
    openDota: createOpenDotaClient({
      baseUrl: options.openDotaUrl ?? defaultOpenDotaUrl,
      clock: deps.clock,
      log: deps.log,
      ...(options.openDotaTimeoutMs !== undefined ? { timeoutMs: options.openDotaTimeoutMs } : {}),
    }),
    heroes: options.heroes ?? dotaHeroes,
    log: deps.log,
  });
  const scheduler = createScheduler({
    repo,
    play,
    clock: deps.clock,
    log: deps.log,
    instanceId: options.instanceId ?? hostname().replace(/[^A-Za-z0-9._-]/g, '-'),
    intervalMs: options.tickIntervalMs ?? 1000,
  });
  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    routes: [gamesRoutes({ repo, tokens: deps.tokens, clock: deps.clock })],
    readiness: platformReadiness(deps),
  });
  let subscriptions: Subscription[] = [];
  return {
    app,
    start: async () => {
      await repo.createIndexes();
      subscriptions = await subscribeGamesEvents(deps.bus, play);
      scheduler.start();
    },
    // only what start() began: in single-machine mode the bus and the store belong to the host
    stop: async () => {
      await scheduler.stop();
      const started = subscriptions;
      subscriptions = [];
      await Promise.all(started.map((subscription) => subscription.stop()));
    },
    tick: () => scheduler.tick(),
  };
}
