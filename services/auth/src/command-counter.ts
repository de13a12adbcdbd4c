import { randomUUID } from 'node:crypto';
import { createPeriodicFlush } from '@kickstand/platform/batch';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { AuthRepository, CommandExecution, CommandExecutionDoc } from './repository';

/** How often the counts gathered in memory are added to the stored day counts. */
export const defaultCountFlushIntervalMs = 5_000;
/** An execution logged this long ago that no flush took belongs to an instance that stopped. */
export const unassignedAbandonedAfterMs = 30_000;
/** A flush that took executions this long ago and did not finish belongs to an instance that stopped. */
export const assignedAbandonedAfterMs = 10 * 60_000;
/** How many abandoned executions one flush recovers (the rest wait for the next). */
const recoveredPerFlush = 5_000;

const executionOf = ({ _id, usageId, date, command, kind }: CommandExecutionDoc): CommandExecution => ({
  seenKey: _id,
  usageId,
  date,
  command,
  kind,
});

export interface CommandCounter {
  /**
   * Counts one execution once per seen key: logs it in the store (one write; false when it was
   * logged already, a redelivery) and adds it to the counts in memory until the next flush.
   */
  record(execution: CommandExecution): Promise<boolean>;
  /** The executions recorded here and not flushed yet, per day-and-command (reads add them to the stored counts). */
  unflushed(): Map<string, { date: string; command: string; kind: CommandExecution['kind']; count: number }>;
  /** Adds what was gathered (and what stopped instances left uncounted) to the stored counts. */
  flush(): Promise<void>;
  /** Flushes every intervalMs (an unref'ed timer). */
  start(): void;
  /** Stops the timer and flushes what is left. */
  stop(): Promise<void>;
}

/**
 * Command usage counted in memory, with the store's command-executions as its log. Before, each
 * execution cost four store writes (log it, increment the day, mark it counted, clear the day's
 * pending mark); now it costs the log's insert (batched with others by the MongoDB adapter), and a
 * flush every few seconds adds all of them with one increment per day-and-command, then moves
 * their seen keys to the counted set and deletes them from the log (repository.ts, countFlush). A
 * stopped or crashed instance's executions are still in the log, uncounted and never expiring: the
 * next flush of any instance counts them once they are abandoned (unassignedAbandonedAfterMs,
 * assignedAbandonedAfterMs).
 */
export function createCommandCounter(deps: {
  repo: AuthRepository;
  clock: Clock;
  log: Logger;
  flushIntervalMs?: number;
}): CommandCounter {
  const { repo, clock, log, flushIntervalMs = defaultCountFlushIntervalMs } = deps;
  let pending = new Map<string, CommandExecution>();

  /** The executions of one flush, each counted once (see repo.commandUsage.countFlush). */
  async function countGroup(flushId: string, executions: readonly CommandExecution[], now: Date) {
    if (executions.length > 0) await repo.commandUsage.countFlush(flushId, executions, now);
  }

  async function flushOnce(): Promise<void> {
    const batch = pending;
    pending = new Map();
    const now = clock.now();
    const toTake = new Map(batch);
    // flushes that took executions and never finished: finished under their own id
    const unfinished = new Map<string, CommandExecution[]>();
    let taken: { flushId: string; count: number } | undefined;
    try {
      const abandoned = await repo.commandUsage.abandoned(
        new Date(now.getTime() - unassignedAbandonedAfterMs),
        new Date(now.getTime() - assignedAbandonedAfterMs),
        recoveredPerFlush,
      );
      const unassigned: CommandExecutionDoc[] = [];
      for (const doc of abandoned) {
        if (doc.flushId === undefined) unassigned.push(doc);
        else unfinished.set(doc.flushId, [...(unfinished.get(doc.flushId) ?? []), executionOf(doc)]);
      }
      const wasCounted = await Promise.all(unassigned.map((doc) => repo.commandUsage.wasCounted(doc._id)));
      for (const [i, doc] of unassigned.entries()) {
        // a redelivery logged after its count by an instance that stopped before it looked (claim)
        if (wasCounted[i]) await repo.commandUsage.discard(doc._id);
        else toTake.set(doc._id, executionOf(doc));
      }
      if (toTake.size > 0) {
        const flushId = randomUUID();
        taken = { flushId, count: await repo.commandUsage.assign([...toTake.keys()], flushId, now) };
      }
    } catch (error) {
      // nothing taken: the batch waits for the next flush
      for (const [key, execution] of batch) if (!pending.has(key)) pending.set(key, execution);
      throw error;
    }
    if (taken) {
      // usually every execution asked for; fewer when another instance's recovery took some of them
      const executions =
        taken.count === toTake.size
          ? [...toTake.values()]
          : (await repo.commandUsage.assigned(taken.flushId)).map(executionOf);
      await countGroup(taken.flushId, executions, now);
    }
    for (const [flushId, executions] of unfinished) await countGroup(flushId, executions, now);
  }

  const periodic = createPeriodicFlush({
    flushOnce,
    everyMs: flushIntervalMs,
    onError: (error) =>
      log.warn({ err: error }, 'could not store command counts; the executions are counted by a later flush'),
  });

  return {
    async record(execution) {
      if (!(await repo.commandUsage.claim(execution, clock.now()))) return false;
      pending.set(execution.seenKey, execution);
      return true;
    },
    unflushed() {
      const counts = new Map<
        string,
        { date: string; command: string; kind: CommandExecution['kind']; count: number }
      >();
      for (const { usageId, date, command, kind } of pending.values()) {
        const entry = counts.get(usageId);
        if (entry) entry.count += 1;
        else counts.set(usageId, { date, command, kind, count: 1 });
      }
      return counts;
    },
    flush: periodic.flush,
    start: periodic.start,
    stop: periodic.stop,
  };
}
