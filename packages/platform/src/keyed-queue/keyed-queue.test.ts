import { createKeyedQueue } from './keyed-queue';

/** A task that finishes when told to, recording when it starts and ends. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    open,
    task: async () => {
      log.push(`${name} start`);
      await opened;
      log.push(`${name} end`);
      return name;
    },
  };
}

describe('createKeyedQueue', () => {
  test('when two tasks share a key, then the second starts only after the first ends', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const first = gate(log, 'first');
    const second = gate(log, 'second');
    const results = [queue.run('k', first.task), queue.run('k', second.task)];
    await Promise.resolve();
    second.open();
    first.open();
    expect(await Promise.all(results)).toEqual(['first', 'second']);
    expect(log).toEqual(['first start', 'first end', 'second start', 'second end']);
  });

  test('when tasks have different keys, then they run side by side', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const results = [queue.run('a', a.task), queue.run('b', b.task)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['a start', 'b start']);
    a.open();
    b.open();
    await Promise.all(results);
  });

  test('when a task fails, then its caller sees the error and the next task of the key still runs', async () => {
    const queue = createKeyedQueue();
    const failed = queue.run('k', () => Promise.reject(new Error('boom')));
    const next = queue.run('k', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });

  test('when idle is awaited, then every task queued before has settled', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const slow = gate(log, 'slow');
    void queue.run('k', slow.task);
    const idle = queue.idle().then(() => log.push('idle'));
    slow.open();
    await idle;
    expect(log).toEqual(['slow start', 'slow end', 'idle']);
  });

  test('when one key drains while another has a task running, or every queue drained, then later tasks still wait per key', async () => {
    const queue = createKeyedQueue();
    await queue.run('k', async () => 'before');
    await queue.idle();
    const log: string[] = [];
    const first = gate(log, 'first');
    const second = gate(log, 'second');
    const results = [queue.run('k', first.task)];
    await queue.run('other', async () => 'drained');
    await new Promise((resolve) => setImmediate(resolve)); // 'other' is forgotten by now
    results.push(queue.run('k', second.task));
    const idle = queue.idle().then(() => log.push('idle'));
    await Promise.resolve();
    second.open();
    first.open();
    expect(await Promise.all(results)).toEqual(['first', 'second']);
    await idle;
    expect(log).toEqual(['first start', 'first end', 'second start', 'second end', 'idle']);
  });
});
