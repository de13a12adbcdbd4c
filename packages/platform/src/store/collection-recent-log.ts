import { createKeyedQueue } from '../keyed-queue';
import {
  DuplicateKeyError,
  type Collection,
  type Document,
  type RecentEntry,
  type RecentItem,
  type RecentLog,
  type RecentLogSpec,
} from './store';

/**
 * A key's documents are trimmed to the newest `keepPerKey` at its first append after a start and
 * then every 25th: reads take only the newest, so the up to 25 older ones in between never show,
 * and the engine is spared a sorted query per append (the costliest query of the chat path; on an
 * engine that cannot use the index it scans the collection).
 */
export const recentLogTrimEvery = 25;

type EntryDocument = Document & Record<string, unknown>;

/**
 * A recent log as documents: one per entry (`_id` the entry's id, so every instance appending the
 * same entry writes the same document, once), indexed by key and date, each key trimmed now and
 * then (recentLogTrimEvery). The MongoDB adapter's recent logs (several instances share them).
 * A key's appends and reads run in order within this process, so a read sees the appends before it.
 */
export function collectionRecentLog<E extends RecentEntry>(
  collection: Collection<EntryDocument>,
  spec: RecentLogSpec,
): RecentLog<E> {
  const { keyField, atField, keepPerKey } = spec;
  const newestFirst = { [atField]: -1, _id: -1 } as const;
  const queue = createKeyedQueue();
  /** Appends per key since its last trim; no entry: not trimmed since this instance started. */
  const sinceTrim = new Map<string, number>();

  async function trim(key: string): Promise<void> {
    const overflow = await collection.find({ [keyField]: key }, { sort: newestFirst, skip: keepPerKey });
    if (overflow.length > 0) await collection.deleteMany({ _id: { $in: overflow.map((doc) => doc._id) } });
  }

  async function insert(key: string, id: string, at: Date, entry: E): Promise<boolean> {
    let isAdded = true;
    try {
      // an insert, not an upsert: the store sends the inserts of a moment together (one round trip)
      await collection.insertOne({ ...entry, _id: id, [keyField]: key, [atField]: at });
    } catch (error) {
      // another instance, or a replay, wrote this entry already
      if (!(error instanceof DuplicateKeyError)) throw error;
      isAdded = false;
    }
    const appended = sinceTrim.get(key);
    if (appended === undefined || appended + 1 >= recentLogTrimEvery) {
      await trim(key);
      sinceTrim.set(key, 0);
    } else {
      sinceTrim.set(key, appended + 1);
    }
    return isAdded;
  }

  const itemOf = (doc: EntryDocument): RecentItem<E> => {
    const { _id: id, [keyField]: _key, [atField]: at, ...entry } = doc;
    return { id, at: at as Date, entry: entry as E };
  };

  return {
    open: () => collection.createIndex({ fields: { [keyField]: 1, [atField]: -1 } }),
    append: (key, id, at, entry) => queue.run(key, () => insert(key, id, at, entry)),
    recent: (key, limit) =>
      queue.run(key, async () => {
        if (limit <= 0) return [];
        const docs = await collection.find(
          { [keyField]: key },
          { sort: newestFirst, limit: Math.min(limit, keepPerKey) },
        );
        return docs.reverse().map(itemOf);
      }),
    range: (key, from, to) =>
      queue.run(key, async () => {
        if (from >= to) return [];
        // only the kept entries: those beyond a key's newest keepPerKey go first
        await trim(key);
        sinceTrim.set(key, 0);
        const docs = await collection.find(
          { [keyField]: key, [atField]: { $gte: from, $lt: to } },
          { sort: { [atField]: 1, _id: 1 } },
        );
        return docs.map(itemOf);
      }),
  };
}
