import { inSlices } from './slices';

/** Lets the promise callbacks queued so far run (a slice's await and the next timer's set-up). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('inSlices', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test('when 250 items are sliced by 100, then each gets slices of 100, 100 and 50 in order, and their results in order', async () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    const seen: number[][] = [];
    const results = await inSlices(items, 100, async (slice) => {
      seen.push(slice);
      return slice.length;
    });
    expect(seen.map((slice) => [slice[0], slice.at(-1)])).toEqual([
      [0, 99],
      [100, 199],
      [200, 249],
    ]);
    expect(results).toEqual([100, 100, 50]);
  });

  test('when the first slice queues an immediate and a timer, then both run before the second slice starts', async () => {
    // One fake clock: with real timers, a loop that reaches its timers phase more than 1 ms after the
    // first slice (a loaded CI machine) runs the pause's timer before the immediate, by design
    jest.useFakeTimers();
    const order: string[] = [];
    const done = inSlices([1, 2], 1, async ([item]) => {
      order.push(`slice ${item}`);
      if (item === 1) {
        setImmediate(() => order.push('immediate'));
        setTimeout(() => order.push('timer'), 0);
      }
    });
    await settle();
    expect(order).toEqual(['slice 1']);
    jest.advanceTimersByTime(0);
    await settle();
    expect(order).toEqual(['slice 1', 'immediate', 'timer']);
    jest.advanceTimersByTime(1);
    await settle();
    expect(order).toEqual(['slice 1', 'immediate', 'timer', 'slice 2']);
    await done;
  });

  test('when a slice takes no time, then the next one starts after a pause of 1 ms', async () => {
    jest.useFakeTimers();
    const started: number[] = [];
    const done = inSlices([1, 2], 1, async ([item]) => {
      started.push(item as number);
    });
    await settle();
    expect(started).toEqual([1]);
    jest.advanceTimersByTime(0);
    await settle();
    expect(started).toEqual([1]);
    jest.advanceTimersByTime(1);
    await settle();
    expect(started).toEqual([1, 2]);
    await done;
  });

  test('when a slice takes 4 ms, then the next one starts after a pause as long, and one of 30 ms is followed by a pause of 10 ms', async () => {
    jest.useFakeTimers();
    const started: number[] = [];
    const took = new Map([
      [1, 4],
      [2, 30],
    ]);
    const done = inSlices([1, 2, 3], 1, async ([item]) => {
      started.push(item as number);
      jest.advanceTimersByTime(took.get(item as number) ?? 0); // the slice's own work
    });
    await settle();
    jest.advanceTimersByTime(3);
    await settle();
    expect(started).toEqual([1]);
    jest.advanceTimersByTime(1);
    await settle();
    expect(started).toEqual([1, 2]);
    jest.advanceTimersByTime(9);
    await settle();
    expect(started).toEqual([1, 2]);
    jest.advanceTimersByTime(1);
    await settle();
    expect(started).toEqual([1, 2, 3]);
    await done;
  });

  test('when there are no items, then each is never called', async () => {
    const each = jest.fn(async () => 0);
    expect(await inSlices([], 10, each)).toEqual([]);
    expect(each).not.toHaveBeenCalled();
  });

  test('when the size is not a whole number of at least one, then it throws', async () => {
    await expect(inSlices([1], 0, async () => 0)).rejects.toThrow('a slice holds at least one item (asked: 0)');
  });
});
