import { createPeriodicFlush } from './periodic-flush';

/** A flushOnce whose runs are counted and finished by the test. */
function recordingFlush() {
  const runs: Array<(error?: Error) => void> = [];
  const flushOnce = () =>
    new Promise<void>((resolve, reject) => {
      runs.push((error) => (error ? reject(error) : resolve()));
    });
  return { runs, flushOnce };
}

/** Lets the promise callbacks queued now run (under fake timers a setImmediate would not fire). */
async function settled(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('createPeriodicFlush', () => {
  test('when a flush is asked while one is under way, then it joins that one instead of starting a second', async () => {
    const { runs, flushOnce } = recordingFlush();
    const periodic = createPeriodicFlush({ flushOnce, everyMs: 0, onError: () => undefined });

    const first = periodic.flush();
    const second = periodic.flush();
    expect(runs).toHaveLength(1);
    runs[0]?.();
    await Promise.all([first, second]);

    const third = periodic.flush();
    expect(runs).toHaveLength(2);
    runs[1]?.();
    await third;
  });

  test('when stopped during a flush, then it waits for it and flushes once more; a failure goes to onError', async () => {
    const { runs, flushOnce } = recordingFlush();
    const errors: unknown[] = [];
    const periodic = createPeriodicFlush({ flushOnce, everyMs: 0, onError: (error) => errors.push(error) });
    const underWay = periodic.flush();

    const stopped = periodic.stop();
    runs[0]?.(new Error('store down'));
    await expect(underWay).rejects.toThrow('store down');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(2);
    runs[1]?.(new Error('still down'));
    await stopped;

    expect(errors).toEqual([new Error('still down')]);
  });

  test('when started, then it flushes every everyMs until stopped', async () => {
    jest.useFakeTimers();
    try {
      const { runs, flushOnce } = recordingFlush();
      const periodic = createPeriodicFlush({ flushOnce, everyMs: 1000, onError: () => undefined });
      periodic.start();

      jest.advanceTimersByTime(999);
      expect(runs).toHaveLength(0);
      jest.advanceTimersByTime(1);
      expect(runs).toHaveLength(1);
      runs[0]?.();
      await settled();
      jest.advanceTimersByTime(1000);
      expect(runs).toHaveLength(2);
      runs[1]?.();
      await settled();

      const stopped = periodic.stop();
      await settled();
      expect(runs).toHaveLength(3); // the last flush, at stop
      runs[2]?.();
      await stopped;
      jest.advanceTimersByTime(5000);
      expect(runs).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
