import type { Subscription } from '@kickstand/platform/bus';
import { createHttpApp } from '@kickstand/platform/http';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import { createChannels, subscribeChannels } from './channels';
import { createCommands } from './commands';
import { commandsConsumerGroup, createCommandChangeRelay, subscribeCommandEvents } from './events';
import { createCommandsRepository } from './repository';
import { commandRoutes } from './routes';
import type { CommandsServiceOptions } from './options';
import { createCommandImport } from './import/command-import';
import { commandImportRoutes } from './import/routes';
import { createCommandUsage } from './usage/command-usage';
import { subscribeCommandUsage } from './usage/events';
import { createCommandUsageRepository } from './usage/repository';
import { commandUsageRoutes } from './usage/routes';

export { defaultCommand, maxCommandsPerUser, type Command } from './commands';
export { commandsOptionsFromSettings } from './config';
export type { CommandsServiceOptions } from './options';

/** Custom commands per streamer: the /api/commands routes, user.changed in, command.changed out. */
export function createCommandsService(deps: PlatformDeps, options: CommandsServiceOptions = {}): Service {
  const repo = createCommandsRepository(deps.store);
  const queue = createKeyedQueue();
  const outbox = createCommandChangeRelay({ repo, bus: deps.bus, log: deps.log, queue });
  const commands = createCommands({ repo, outbox, queue, clock: deps.clock });
  const channels = createChannels(deps.store);
  const imports = createCommandImport({ commands, loadCommands: async (userId) => (await repo.load(userId)).commands });
  const { redeliveryWindowSeconds } = options;
  const usageRepo = createCommandUsageRepository(deps.store, { redeliveryWindowSeconds });
  const usage = createCommandUsage({ repo: usageRepo, clock: deps.clock, log: deps.log, redeliveryWindowSeconds });
  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    routes: [
      commandRoutes({ commands, channels, tokens: deps.tokens }),
      commandImportRoutes({ imports, tokens: deps.tokens }),
      commandUsageRoutes({ commands, usage, tokens: deps.tokens }),
    ],
    readiness: platformReadiness(deps),
  });
  let subscriptions: Subscription[] = [];
  return {
    app,
    start: async () => {
      // what a crash or a bus outage left in the outboxes goes first, then every 30 s
      await outbox.start();
      await usageRepo.createIndexes();
      subscriptions = [
        ...(await subscribeCommandEvents(deps.bus, commands)),
        ...(await subscribeCommandUsage(deps.bus, usage)),
        ...(await subscribeChannels(deps.bus, commandsConsumerGroup, channels)),
      ];
    },
    // only what start() began: in single-machine mode the bus and the store belong to the host
    stop: async () => {
      outbox.stop();
      const started = subscriptions;
      subscriptions = [];
      await Promise.all(started.map((subscription) => subscription.stop()));
    },
  };
}
