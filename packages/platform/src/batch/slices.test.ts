import { inSlices } from './slices';

describe('inSlices', () => {
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

  test('when there are two slices, then an immediate queued during the first runs before the second', async () => {
    const order: string[] = [];
    await inSlices([1, 2], 1, async ([item]) => {
      order.push(`slice ${item}`);
      if (item === 1) setImmediate(() => order.push('immediate'));
    });
    expect(order).toEqual(['slice 1', 'immediate', 'slice 2']);
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
