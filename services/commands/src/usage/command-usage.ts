import type { CommandStats } from '@kickstand/api-contract';
import { commandKey } from '@kickstand/chat-language';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { CommandKind, type CommandExecuted, timestampDate } from '@kickstand/proto';
import type { CommandUsageDoc, CommandUsageRepository } from './repository';
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

/** How many commands' usage documents are kept in memory (then the cache starts over). */
const maxCachedDocs = 20_000;

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
  /**
   * The usage documents as this instance last wrote or read them: a command's next execution
   * writes on that version without reading it again (one store round trip instead of two). The
   * write is guarded by the version, so a document another instance changed meanwhile (after a
   * rebalance of command.executed) fails the write, and is read again.
   */
  const known = new Map<string, CommandUsageDoc>();
  const remember = (doc: CommandUsageDoc) => {
    if (known.size >= maxCachedDocs) known.clear();
    known.set(`${doc.userId}:${doc.command}`, doc);
  };

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
      const key = `${message.ownerUserId}:${command}`;
      for (let attempt = 1; attempt <= maxWriteAttempts; attempt++) {
        const cached = attempt === 1 ? known.get(key) : undefined;
        known.delete(key);
        const doc = cached ?? (await repo.load(message.ownerUserId, command));
        const next = recordUse(doc ?? emptyUsage(), at, message.eventId, clock.now());
        if (!next) {
          if (doc) remember(doc);
          return; // delivered again: counted already
        }
        const written = doc ? await repo.save(doc, next) : await repo.create(message.ownerUserId, command, next);
        if (written) {
          remember(
            doc
              ? { ...doc, ...next, version: doc.version + 1 }
              : { _id: key, userId: message.ownerUserId, command, ...next, version: 1 },
          );
          return;
        }
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

    removeAllOf: async (userId) => {
      for (const doc of known.values()) if (doc.userId === userId) known.delete(`${doc.userId}:${doc.command}`);
      await repo.removeAllOf(userId);
    },
  };
}
