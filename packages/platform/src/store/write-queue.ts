/**
 * Runs tasks one after another per key (a collection name), so a read-modify-write made of several
 * engine calls is atomic within this process.
 */
export interface WriteQueue {
  run<R>(key: string, task: () => Promise<R>): Promise<R>;
  /** Resolves once every task queued so far has settled. */
  idle(): Promise<void>;
}

export function createWriteQueue(): WriteQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      const result = (tails.get(key) ?? Promise.resolve()).then(task);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      // forget a key once its queue drains, so the map does not keep every collection ever written
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    async idle() {
      await Promise.all(tails.values());
    },
  };
}
