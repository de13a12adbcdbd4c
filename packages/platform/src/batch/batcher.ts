/**
 * Gathers the requests made close together into one round trip (the bus's produce requests, the
 * store's inserts).
 *
 * The first item waits for the end of the current turn of the event loop (so everything asked in
 * that turn goes with it); while a request is in flight, new items queue and leave together in the
 * next one, as soon as it returns. An idle caller therefore waits no longer than before, and a busy
 * one makes one request per round trip instead of one per item. One request is in flight at a
 * time, so items reach the other side in the order they were given.
 */

export interface BatcherOptions<T> {
  /**
   * Sends the items in the order given. Resolves once all of them are done, or with one entry per
   * item when some failed alone (undefined: that item succeeded; anything else: its error).
   * A rejection fails every item of the request.
   */
  sendBatch(items: T[]): Promise<void | readonly unknown[]>;
  /** The most items in one request; 500 unless told. */
  maxBatch?: number;
}

export interface Batcher<T> {
  /** Resolves once `item` is done; rejects with its own error or its request's. */
  send(item: T): Promise<void>;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createBatcher<T>(options: BatcherOptions<T>): Batcher<T> {
  const maxBatch = options.maxBatch ?? 500;
  let queue: Waiting<T>[] = [];
  let isFlushing = false;

  async function flush(): Promise<void> {
    // the rest of this turn's items join the first request
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const errors = await options.sendBatch(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, index) => {
          const error = errors?.[index];
          if (error === undefined) waiting.resolve();
          else waiting.reject(error);
        });
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    isFlushing = false;
  }

  return {
    send(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!isFlushing) {
          isFlushing = true;
          void flush();
        }
      });
    },
  };
}
