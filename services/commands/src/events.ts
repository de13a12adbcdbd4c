import { randomUUID } from 'node:crypto';
import type { KickstandBus, Subscription } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import { ChangeKind, UserChangeKind, UserRole, type UserChanged, timestampFromDate } from '@kickstand/proto';
import type { Command, CommandChanges, Commands } from './commands';

/** Instances of this service share the group, so each user.changed is handled by one of them. */
export const commandsConsumerGroup = 'commands';

/**
 * Out: command.changed, keyed by the owner's user id, carrying the name and the response, so that
 * bot-runner can keep its own read model from the events alone.
 */
export function createCommandChangePublisher(bus: KickstandBus, clock: Clock): CommandChanges {
  const publish = (kind: ChangeKind, userId: string, command: Command) =>
    bus.publish('command.changed', userId, {
      eventId: randomUUID(),
      occurredAt: timestampFromDate(clock.now()),
      userId,
      kind,
      command: command.command,
      response: command.response,
    });
  return {
    added: (userId, command) => publish(ChangeKind.ADDED, userId, command),
    removed: (userId, command) => publish(ChangeKind.REMOVED, userId, command),
  };
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
