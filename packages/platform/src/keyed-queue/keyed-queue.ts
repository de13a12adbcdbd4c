/**
 * Runs tasks one after another per key, and tasks of different keys side by side, within this
 * process: one channel's or one user's read-modify-write, or its outbox relay, never interleaves
 * with another of the same key. A failed task does not stop the ones queued behind it.
 */
export interface KeyedQueue {
  run<R>(key: string, task: () => Promise<R>): Promise<R>;
  /** Resolves once every task queued so far has settled. */
  idle(): Promise<void>;
}

export function createKeyedQueue(): KeyedQueue {
  let tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      const result = (tails.get(key) ?? Promise.resolve()).then(task);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      // forget a key once its queue drains, so the map does not keep every key ever used
      void tail.then(() => {
        if (tails.get(key) === tail) {
          tails.delete(key);
          // a new Map once it empties: an old Map's table is resized in the old generation, at every
          // fill and drain (docs/performance.md, "Garbage made in the old generation")
          if (tails.size === 0) tails = new Map();
        }
      });
      return result;
    },
    async idle() {
      await Promise.all(tails.values());
    },
  };
}
