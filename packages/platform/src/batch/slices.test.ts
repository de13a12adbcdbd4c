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

  test('when there are two slices, then an immediate and a timer queued during the first run before the second', async () => {
    const order: string[] = [];
    await inSlices([1, 2], 1, async ([item]) => {
      order.push(`slice ${item}`);
      if (item === 1) {
        setImmediate(() => order.push('immediate'));
        setTimeout(() => order.push('timer'), 0);
      }
    });
    // Node does not order an immediate against a 0 ms timer queued in the same task (that depends
    // on whether a millisecond passed before the loop's timers phase); both must come before slice 2
    expect(order[0]).toBe('slice 1');
    expect(order.slice(1, 3).sort()).toEqual(['immediate', 'timer']);
    expect(order[3]).toBe('slice 2');
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
