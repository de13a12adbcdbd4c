import type { CounterUse } from '@kickstand/chat-language';
import { DuplicateKeyError, type Store, type Document } from '@kickstand/platform/store';

/**
 * The channel's named counters (`{counter:deaths}`), one document per counter. A chat line
 * changes a counter at most once, even when it is delivered again (a rebalance, a restart): the
 * document remembers the last lines that changed it, and the change and that memory are one
 * atomic write on the version read (two writers: one wins, the other reads again).
 */
export interface CounterDoc extends Document {
  userId: string;
  /** Lowercase. */
  name: string;
  value: number;
  version: number;
  /** The chat message ids of the last lines that changed it (at most `appliedLinesKept`). */
  lines: string[];
  updatedAt: Date;
}

/** A line delivered again is redelivered within minutes; a counter changed this often in between is not credible. */
export const appliedLinesKept = 100;
const maxAttempts = 20;

export interface CountersRepository {
  /**
   * Applies a response's changes for one chat line (once per line and counter) and returns every
   * counter it mentions with its value after them.
   */
  apply(userId: string, messageId: string, uses: readonly CounterUse[], at: Date): Promise<Map<string, number>>;
  list(userId: string): Promise<CounterDoc[]>;
  get(userId: string, name: string): Promise<CounterDoc | null>;
  count(userId: string): Promise<number>;
  /** Sets the value (creating the counter); returns it. */
  set(userId: string, name: string, value: number, at: Date): Promise<CounterDoc>;
  /** Null when there is no such counter. */
  reset(userId: string, name: string, at: Date): Promise<CounterDoc | null>;
  /** False when there is no such counter. */
  remove(userId: string, name: string): Promise<boolean>;
}

export function createCountersRepository(store: Store): CountersRepository {
  const counters = store.collection<CounterDoc>('counters');
  const idOf = (userId: string, name: string) => `${userId}:${name}`;

  async function applyOne(userId: string, messageId: string, use: CounterUse, at: Date): Promise<number> {
    const _id = idOf(userId, use.name);
    if (use.delta === 0) return (await counters.findOne({ _id }))?.value ?? 0;
    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      const doc = await counters.findOne({ _id });
      if (!doc) {
        try {
          const created = {
            _id,
            userId,
            name: use.name,
            value: use.delta,
            version: 1,
            lines: [messageId],
            updatedAt: at,
          };
          return (await counters.insertOne(created)).value;
        } catch (error) {
          if (error instanceof DuplicateKeyError) continue;
          throw error;
        }
      }
      if (doc.lines.includes(messageId)) return doc.value;
      const next = await counters.findOneAndUpdate(
        { _id, version: doc.version },
        {
          $set: {
            value: doc.value + use.delta,
            lines: [...doc.lines, messageId].slice(-appliedLinesKept),
            updatedAt: at,
          },
          $inc: { version: 1 },
        },
        { returnDocument: 'after' },
      );
      if (next) return next.value;
    }
    throw new Error(`counter ${_id}: too many concurrent changes`);
  }

  return {
    apply: async (userId, messageId, uses, at) => {
      const values = new Map<string, number>();
      for (const use of uses) values.set(use.name, await applyOne(userId, messageId, use, at));
      return values;
    },
    list: (userId) => counters.find({ userId }, { sort: { name: 1 } }),
    get: (userId, name) => counters.findOne({ _id: idOf(userId, name) }),
    count: (userId) => counters.count({ userId }),
    set: async (userId, name, value, at) => {
      const doc = await counters.findOneAndUpdate(
        { _id: idOf(userId, name) },
        { $set: { userId, name, value, updatedAt: at }, $inc: { version: 1 }, $setOnInsert: { lines: [] } },
        { upsert: true, returnDocument: 'after' },
      );
      if (!doc) throw new Error(`counter ${name} not written`);
      return doc;
    },
    reset: (userId, name, at) =>
      counters.findOneAndUpdate(
        { _id: idOf(userId, name) },
        { $set: { value: 0, updatedAt: at }, $inc: { version: 1 } },
        { returnDocument: 'after' },
      ),
    remove: async (userId, name) => (await counters.deleteOne({ _id: idOf(userId, name) })) > 0,
  };
}
