export type Topic = 'chat' | 'deliveries' | 'calls' | 'bans';

/**
 * Lets a control-API reader wait for the next write instead of polling in a tight loop
 * (`GET /sandbox/api/chat?...&waitMs=5000`). In memory: only this process writes the store.
 */
export interface Notifier {
  notify(topic: Topic): void;
  /** Resolves true at the next notify on the topic or after `ms`; false once the sandbox stops. */
  next(topic: Topic, ms: number): Promise<boolean>;
  close(): void;
}

export function createNotifier(): Notifier {
  const waiters = new Map<Topic, Set<(isOpen: boolean) => void>>();
  let isClosed = false;
  const wakeAll = (topic: Topic, isOpen: boolean) => {
    const set = waiters.get(topic);
    waiters.delete(topic);
    for (const wake of set ?? []) wake(isOpen);
  };
  return {
    notify: (topic) => wakeAll(topic, true),
    next(topic, ms) {
      if (isClosed) return Promise.resolve(false);
      return new Promise((resolve) => {
        const set = waiters.get(topic) ?? new Set<(isOpen: boolean) => void>();
        const wake = (isOpen: boolean) => {
          clearTimeout(timer);
          set.delete(wake);
          resolve(isOpen);
        };
        const timer = setTimeout(() => wake(true), ms);
        set.add(wake);
        waiters.set(topic, set);
      });
    },
    close() {
      isClosed = true;
      for (const topic of [...waiters.keys()]) wakeAll(topic, false);
    },
  };
}
