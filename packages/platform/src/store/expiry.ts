import type { Clock } from '../clock/clock';
import type { Logger } from '../log/logger';
import { DuplicateKeyError, type Filter, type IndexSpec } from './store';

/**
 * TTL bookkeeping shared by both adapters. Expiry is decided by the injected clock, never by the
 * engine, so both adapters agree and a test can step time: an engine's own TTL monitor (MongoDB's)
 * runs on wall-clock time, at most once a minute, and is absent on some engines.
 */
export interface Expiry {
  /** Records the TTL rule of an index spec that has `expireAfterSeconds`. */
  register(collection: string, spec: IndexSpec): void;
  /** One `{ field: { $lt: cutoff } }` per TTL rule of the collection, at the clock's now; empty without rules. */
  expiredConditions(collection: string): Filter[];
  collections(): string[];
}

export function createExpiry(clock: Clock): Expiry {
  const rules = new Map<string, Map<string, number>>();
  return {
    register(collection, spec) {
      const fields = Object.keys(spec.fields);
      const field = fields[0];
      if (spec.expireAfterSeconds === undefined) return;
      if (fields.length !== 1 || field === undefined) {
        throw new Error(`a TTL index needs exactly one date field (collection ${collection})`);
      }
      const forCollection = rules.get(collection) ?? new Map<string, number>();
      forCollection.set(field, spec.expireAfterSeconds);
      rules.set(collection, forCollection);
    },
    expiredConditions(collection) {
      const forCollection = rules.get(collection);
      if (!forCollection) return [];
      const now = clock.now().getTime();
      // a document is expired once its date + expireAfterSeconds lies in the past; fields that are
      // missing or not dates never match a date comparison, so such documents never expire (as in MongoDB)
      return [...forCollection].map(([field, seconds]) => ({ [field]: { $lt: new Date(now - seconds * 1000) } }));
    },
    collections: () => [...rules.keys()],
  };
}

/**
 * Runs a single-document write; when it hits a unique key and the collection has TTL rules, deletes
 * the expired documents and tries once more, so a key held only by an expired document can be
 * claimed again.
 */
export async function retryAfterPurgingExpired<R>(
  hasExpiry: boolean,
  purgeExpired: () => Promise<unknown>,
  write: () => Promise<R>,
): Promise<R> {
  try {
    return await write();
  } catch (error) {
    if (!hasExpiry || !(error instanceof DuplicateKeyError)) throw error;
    await purgeExpired();
    return write();
  }
}

export interface Sweeper {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

export function startSweeper(intervalMs: number, sweep: () => Promise<void>, log: Logger): Sweeper {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    // a slow sweep is not stacked on top of itself
    if (running) return;
    running = sweep()
      .catch((err: unknown) => log.warn({ err }, 'store sweep failed'))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  // the sweep alone must not keep a process (or a test run) alive
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
