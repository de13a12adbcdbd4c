import type { KickstandBus, Subscription } from '@kickstand/platform/bus';
import type { KeyedQueue } from '@kickstand/platform/keyed-queue';
import type { Logger } from '@kickstand/platform/log';
import { createOutboxRelay, type OutboxRelay } from '@kickstand/platform/outbox';
import { defaultCommandSettings } from '@kickstand/api-contract';
import {
  ChangeKind,
  UserChangeKind,
  UserRole,
  commandSettingsToProto,
  type UserChanged,
  timestampFromDate,
} from '@kickstand/proto';
import type { Commands } from './commands';
import type { CommandSetDoc, CommandsRepository, PendingCommandChange } from './repository';

/** Instances of this service share the group, so each user.changed is handled by one of them. */
export const commandsConsumerGroup = 'commands';

const changeKinds: Record<PendingCommandChange['kind'], ChangeKind> = {
  ADDED: ChangeKind.ADDED,
  REMOVED: ChangeKind.REMOVED,
  UPDATED: ChangeKind.UPDATED,
};

/**
 * Out: command.changed, keyed by the owner's user id, carrying the name and the response, so that
 * bot-runner can keep its own read model from the events alone. What a change left in the set's
 * outbox goes through the platform's outbox relay, sharing the queue the changes run in.
 */
export function createCommandChangeRelay(deps: {
  repo: CommandsRepository;
  bus: KickstandBus;
  log: Logger;
  queue: KeyedQueue;
  retryMs?: number;
}): OutboxRelay<CommandSetDoc> {
  return createOutboxRelay<CommandSetDoc, PendingCommandChange>({
    collection: deps.repo.outboxCollection,
    idField: 'eventId',
    name: 'command.changed',
    log: deps.log,
    queue: deps.queue,
    ...(deps.retryMs !== undefined ? { retryMs: deps.retryMs } : {}),
    publish: (set, change) =>
      deps.bus.publish('command.changed', set._id, {
        eventId: change.eventId,
        occurredAt: timestampFromDate(change.occurredAt),
        userId: set._id,
        kind: changeKinds[change.kind],
        command: change.command,
        response: change.response,
        previousCommand: change.previousCommand ?? '',
        // an entry written before settings existed is of a command with the defaults
        settings: commandSettingsToProto(change.settings ?? defaultCommandSettings),
      }),
  });
}

/**
 * In: user.changed. A new streamer (role USER) gets the default command; a deleted user's commands
 * go. Both are idempotent, as delivery is at least once. Other kinds are not this service's concern.
 */
export function onUserChanged(commands: Commands): (change: UserChanged) => Promise<void> {
  return async (change) => {
    if (change.userId === '') return; // proto3 cannot require it; nothing to act on without it
    switch (change.kind) {
      case UserChangeKind.CREATED:
        if (change.role === UserRole.USER) await commands.seedDefault(change.userId);
        return;
      case UserChangeKind.DELETED:
        await commands.removeAllOf(change.userId);
        return;
      default:
        return;
    }
  };
}

export async function subscribeCommandEvents(bus: KickstandBus, commands: Commands): Promise<Subscription[]> {
  return [await bus.subscribe('user.changed', commandsConsumerGroup, onUserChanged(commands))];
}
