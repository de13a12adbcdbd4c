/**
 * What is gathered in memory and written now and then (auth's command counts, kick-link's delivery
 * health): one flush at a time, every `everyMs` on an unref'ed timer, and a last one at stop.
 */
export interface PeriodicFlush {
  /** Runs a flush now, or joins the one under way. */
  flush(): Promise<void>;
  /** Flushes every `everyMs` (never when it is 0 or less); a failed flush goes to `onError`. */
  start(): void;
  /** Stops the timer, waits for a flush under way, then flushes what is left. */
  stop(): Promise<void>;
}

export function createPeriodicFlush(options: {
  flushOnce: () => Promise<void>;
  everyMs: number;
  onError: (error: unknown) => void;
}): PeriodicFlush {
  const { flushOnce, everyMs, onError } = options;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  function flush(): Promise<void> {
    flushing ??= flushOnce().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  return {
    flush,
    start() {
      if (timer || everyMs <= 0) return;
      timer = setInterval(() => flush().catch(onError), everyMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flushing?.catch(() => undefined);
      await flush().catch(onError);
    },
  };
}
