import type { KickstandBus, Subscription } from '@kickstand/platform/bus';
import { UserChangeKind } from '@kickstand/proto';
import type { CommandUsage } from './command-usage';

/**
 * Its own group, so usage is counted apart from the service's other work: instances share it, so
 * each command.executed is counted by one of them (keyed by the owner: one streamer's in order).
 */
export const commandUsageConsumerGroup = 'commands-usage';

/** In: command.executed (a run to count) and user.changed DELETED (the streamer's usage goes). */
export async function subscribeCommandUsage(bus: KickstandBus, usage: CommandUsage): Promise<Subscription[]> {
  return [
    await bus.subscribe('command.executed', commandUsageConsumerGroup, (message) => usage.recordExecution(message)),
    await bus.subscribe('user.changed', commandUsageConsumerGroup, async (change) => {
      if (change.kind === UserChangeKind.DELETED && change.userId !== '') await usage.removeAllOf(change.userId);
    }),
  ];
}
