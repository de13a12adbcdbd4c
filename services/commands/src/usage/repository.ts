import { inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import { DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';
import type { Usage } from './usage';

/**
 * `command-usage`: one document per command of a streamer, `_id` = `{userId}:{command key}`,
 * changed by small updates (one bucket incremented), never rewritten whole.
 */
export interface CommandUsageDoc extends Document, Usage {
  userId: string;
  /** The command's key (lower case). */
  command: string;
  /**
   * Earlier versions only: the newest event ids they counted (up to 200), read so that a
   * redelivery of one of them is not counted again, and removed once none can come any more.
   */
  recentEventIds?: string[];
  /** Earlier versions only: the version their whole-document rewrites were guarded by. */
  version?: number;
}

/** One execution to add to a command's usage. */
export interface Run {
  userId: string;
  /** The command's key. */
  command: string;
  eventId: string;
  /** The hour bucket to increment; null for a run older than the kept buckets (only lastUsedAt moves). */
  bucket: string | null;
  at: Date;
}

export interface CommandUsageRepository {
  /** The index, and the counted set opened (the embedded store replays its log). */
  createIndexes(): Promise<void>;
  /**
   * Marks `eventId` counted (durable on return): false when it was marked already within the
   * redelivery window, i.e. the message is a redelivery.
   */
  claimCount(eventId: string, now: Date): Promise<boolean>;
  /**
   * One run more, in one write (creating the document if needed): the document after it, or
   * null when an earlier version had counted this event id already (in `recentEventIds`).
   */
  addRun(run: Run): Promise<CommandUsageDoc | null>;
  /** Removes the buckets `buckets`, and with `legacy` the earlier versions' fields. */
  dropOld(id: string, buckets: readonly string[], legacy: boolean): Promise<void>;
  listOf(userId: string): Promise<CommandUsageDoc[]>;
  removeAllOf(userId: string): Promise<void>;
}

/**
 * The event ids of the counted command.executed (a claim set: ~30 bytes each outside the V8 heap
 * on the embedded store, claim-table.ts; a document each with a TTL index on MongoDB), each kept
 * for the bus's redelivery window from when it was counted.
 */
export const countedEventsSet = 'command-usage-counted';

const idOf = (userId: string, command: string) => `${userId}:${command}`;

export function createCommandUsageRepository(
  store: Store,
  options: { redeliveryWindowSeconds?: number } = {},
): CommandUsageRepository {
  const usage = store.collection<CommandUsageDoc>('command-usage');
  const counted = store.claimSet(countedEventsSet, {
    expireAfterSeconds: options.redeliveryWindowSeconds ?? inProcessRedeliveryWindowSeconds,
    dateField: 'countedAt',
  });
  return {
    createIndexes: async () => {
      await usage.createIndex({ fields: { userId: 1 } });
      await counted.open();
    },
    claimCount: (eventId, now) => counted.claim(eventId, now),
    addRun: async ({ userId, command, eventId, bucket, at }) => {
      try {
        return await usage.findOneAndUpdate(
          // an earlier version's document that lists the id counted it: no match, and the
          // upsert's insert of the same _id fails below
          { _id: idOf(userId, command), recentEventIds: { $ne: eventId } },
          {
            ...(bucket === null ? {} : { $inc: { [`hours.${bucket}`]: 1 } }),
            $max: { lastUsedAt: at },
            $setOnInsert: { userId, command, ...(bucket === null ? { hours: {} } : {}) },
          },
          { upsert: true, returnDocument: 'after' },
        );
      } catch (error) {
        if (error instanceof DuplicateKeyError) return null;
        throw error;
      }
    },
    dropOld: async (id, buckets, legacy) => {
      const fields: Record<string, true> = Object.fromEntries(buckets.map((bucket) => [`hours.${bucket}`, true]));
      if (legacy) Object.assign(fields, { recentEventIds: true, version: true });
      await usage.updateOne({ _id: id }, { $unset: fields });
    },
    listOf: (userId) => usage.find({ userId }),
    removeAllOf: async (userId) => {
      await usage.deleteMany({ userId });
    },
  };
}
