export type Topic = 'chat' | 'deliveries' | 'calls' | 'bans';

/**
 * Lets a control-API reader wait for the next write instead of polling in a tight loop
 * (`GET /sandbox/api/chat?...&waitMs=5000`). In memory: only this process writes the store.
 */
export interface Notifier {
  notify(topic: Topic): void;
  /** Resolves at the next notify on the topic, after `ms`, or when the sandbox stops. */
  next(topic: Topic, ms: number): Promise<void>;
  close(): void;
}

export function createNotifier(): Notifier {
  const waiters = new Map<Topic, Set<() => void>>();
  let isClosed = false;
  const wakeAll = (topic: Topic) => {
    const set = waiters.get(topic);
    waiters.delete(topic);
    for (const wake of set ?? []) wake();
  };
  return {
    notify: wakeAll,
    next(topic, ms) {
      if (isClosed) return Promise.resolve();
      return new Promise((resolve) => {
        const set = waiters.get(topic) ?? new Set<() => void>();
        const wake = () => {
          clearTimeout(timer);
          set.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        set.add(wake);
        waiters.set(topic, set);
      });
    },
    close() {
      isClosed = true;
      for (const topic of [...waiters.keys()]) wakeAll(topic);
    },
  };
}
