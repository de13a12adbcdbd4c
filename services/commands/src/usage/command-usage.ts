import type { CommandStats } from '@kickstand/api-contract';
import { commandKey } from '@kickstand/chat-language';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { CommandKind, type CommandExecuted, timestampDate } from '@kickstand/proto';
import type { CommandUsageRepository } from './repository';
import { emptyUsage, recordUse, statsOf } from './usage';

export interface CommandUsage {
  /** command.executed of a custom command → one run more, once per event id. */
  recordExecution(message: CommandExecuted): Promise<void>;
  /** The usage of each of `commands` (names as stored), zero for one that never ran. */
  statsOf(userId: string, commands: readonly string[]): Promise<CommandStats[]>;
  /** A deleted streamer's usage goes with their commands. */
  removeAllOf(userId: string): Promise<void>;
}

const maxWriteAttempts = 5;

/** Built-in and game commands are answered by games and are not in the streamer's list. */
const isCustom = (kind: CommandKind) => kind === CommandKind.CUSTOM || kind === CommandKind.UNSPECIFIED;

export function createCommandUsage({
  repo,
  clock,
  log,
}: {
  repo: CommandUsageRepository;
  clock: Clock;
  log: Logger;
}): CommandUsage {
  return {
    async recordExecution(message) {
      const command = commandKey(message.command.trim().replace(/^\$/, ''));
      const time = message.executedAt ?? message.occurredAt;
      if (!isCustom(message.kind) || !message.ownerUserId || !message.eventId || !command || !time) {
        log.debug(
          { eventId: message.eventId },
          'command.executed not counted: not a custom command, or fields missing',
        );
        return;
      }
      const at = timestampDate(time);
      for (let attempt = 1; attempt <= maxWriteAttempts; attempt++) {
        const doc = await repo.load(message.ownerUserId, command);
        const next = recordUse(doc ?? emptyUsage(), at, message.eventId, clock.now());
        if (!next) return; // delivered again: counted already
        const written = doc ? await repo.save(doc, next) : await repo.create(message.ownerUserId, command, next);
        if (written) return;
      }
      // the bus retries the message (and finally dead-letters it)
      throw new Error(`command usage of ${command}: ${maxWriteAttempts} conflicting writes`);
    },

    async statsOf(userId, commands) {
      const now = clock.now();
      const stored = new Map((await repo.listOf(userId)).map((doc) => [doc.command, doc]));
      return commands.map((name) => {
        const key = commandKey(name);
        return statsOf(key, stored.get(key) ?? emptyUsage(), now);
      });
    },

    removeAllOf: (userId) => repo.removeAllOf(userId),
  };
}
