import type { CommandStats } from '@kickstand/api-contract';
import { commandKey } from '@kickstand/chat-language';
import type { Clock } from '@kickstand/platform/clock';
import { inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import type { Logger } from '@kickstand/platform/log';
import { CommandKind, type CommandExecuted, timestampDate } from '@kickstand/proto';
import type { CommandUsageRepository } from './repository';
import { bucketOf, emptyUsage, staleBuckets, statsOf } from './usage';

export interface CommandUsage {
  /** command.executed of a custom command → one run more, once per event id. */
  recordExecution(message: CommandExecuted): Promise<void>;
  /** The usage of each of `commands` (names as stored), zero for one that never ran. */
  statsOf(userId: string, commands: readonly string[]): Promise<CommandStats[]>;
  /** A deleted streamer's usage goes with their commands. */
  removeAllOf(userId: string): Promise<void>;
}

/** Built-in and game commands are answered by games and are not in the streamer's list. */
const isCustom = (kind: CommandKind) => kind === CommandKind.CUSTOM || kind === CommandKind.UNSPECIFIED;

/**
 * Counts each command.executed once, in two writes: its event id is claimed in the counted set
 * (repository.ts), then the command's hour bucket is incremented. Nothing is read first and
 * nothing per event stays in the usage document, so a command's usage costs its buckets only.
 *
 * The order is what keeps the count from ever growing twice for one message: the claim comes
 * first, so a redelivery (the bus retrying a failed handler, Kafka resuming a group) finds the id
 * claimed and stops, whatever happened after the claim. The price: when the process dies, or the
 * increment fails, after the claim, that execution is never counted (at most once; the other order
 * would count it twice on a redelivery instead). Exactly once would need the claim and the
 * increment in one atomic write, i.e. the event ids back in the document, or a log recovered by a
 * flush as auth's day counts have; for a dashboard counter one lost run per crash is the better
 * trade. With the in-process bus a crash loses the messages in flight anyway.
 *
 * Old buckets are dropped now and then, not on each write: when the document a write returns
 * holds a bucket older than the kept 7 days (at most once an hour per command).
 */
export function createCommandUsage({
  repo,
  clock,
  log,
  redeliveryWindowSeconds = inProcessRedeliveryWindowSeconds,
}: {
  repo: CommandUsageRepository;
  clock: Clock;
  log: Logger;
  /** The bus's redelivery window (the counted set's, repository.ts). */
  redeliveryWindowSeconds?: number;
}): CommandUsage {
  const startedAtMs = clock.now().getTime();
  /**
   * Documents of earlier versions list the event ids they counted (`recentEventIds`, still
   * honoured by addRun). Those messages were counted before this instance started, so none of
   * them comes again once a redelivery window has passed since: the list can go then.
   */
  const legacyIdsMayMatter = () => clock.now().getTime() - startedAtMs < redeliveryWindowSeconds * 1000;

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
      const now = clock.now();
      if (!(await repo.claimCount(message.eventId, now))) return; // delivered again: counted already
      const at = timestampDate(time);
      const doc = await repo.addRun({
        userId: message.ownerUserId,
        command,
        eventId: message.eventId,
        bucket: bucketOf(at, now),
        at,
      });
      if (!doc) return; // counted by an earlier version
      const stale = staleBuckets(doc.hours, now);
      const dropLegacy = (doc.recentEventIds !== undefined || doc.version !== undefined) && !legacyIdsMayMatter();
      if (stale.length > 0 || dropLegacy) {
        // the run is counted already: a failure here only leaves the old fields for a later write
        await repo
          .dropOld(doc._id, stale, dropLegacy)
          .catch((error: unknown) => log.warn({ err: error, id: doc._id }, 'could not drop old command usage buckets'));
      }
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
