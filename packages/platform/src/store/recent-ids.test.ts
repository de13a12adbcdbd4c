import { createRecentIds } from './recent-ids';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('recent ids (recent-ids.ts)', () => {
  test('when an id is seen twice, then it is new the first time only, whatever its shape', () => {
    const ids = createRecentIds({ maxIds: 10 });
    for (const id of [`chat:${uuid(1)}`, uuid(1), '01HZX3Q8M4K2N7P9R5T6V8W0YZ', 'h_0f3a', '']) {
      expect(ids.isNew(id, 1000)).toBe(true);
      expect(ids.isNew(id, 1001)).toBe(false);
      expect(ids.has(id, 1002)).toBe(true);
    }
    expect(ids.size).toBe(5);
    expect(ids.has(`command:${uuid(1)}`, 1002)).toBe(false);
  });

  test('when more ids than maxIds arrive, then the newest maxIds are remembered and the older ones forgotten, oldest first', () => {
    const ids = createRecentIds({ maxIds: 3 });
    for (let n = 1; n <= 10; n += 1) expect(ids.isNew(uuid(n), n)).toBe(true);
    expect(ids.size).toBe(3);
    expect([10, 9, 8, 7].map((n) => ids.has(uuid(n), 11))).toEqual([true, true, true, false]);
    // 7 comes back as new and takes the place of the oldest remembered (8)
    expect(ids.isNew(uuid(7), 12)).toBe(true);
    expect([7, 10, 9, 8].map((n) => ids.has(uuid(n), 13))).toEqual([true, true, true, false]);
  });

  test('when keepMs has passed since an id was seen, then it is forgotten (new again), not a moment before', () => {
    const ids = createRecentIds({ maxIds: 100, keepMs: 1000 });
    ids.add(uuid(1), 5000);
    ids.add(uuid(2), 5500);
    expect(ids.has(uuid(1), 5999)).toBe(true);
    expect(ids.has(uuid(1), 6000)).toBe(false);
    expect(ids.has(uuid(2), 6000)).toBe(true);
    expect(ids.size).toBe(1);
    expect(ids.isNew(uuid(1), 6000)).toBe(true);
  });

  test('when an id is added again, then its time starts again, and the place it left is not counted as an id', () => {
    const ids = createRecentIds({ maxIds: 2, keepMs: 1000 });
    ids.add(uuid(1), 0);
    ids.add(uuid(2), 100);
    ids.add(uuid(1), 900);
    expect(ids.size).toBe(2);
    // 1 was seen again at 900: it outlives its first date, 2 does not
    expect(ids.has(uuid(2), 1100)).toBe(false);
    expect(ids.has(uuid(1), 1899)).toBe(true);
    expect(ids.has(uuid(1), 1900)).toBe(false);
    expect(ids.size).toBe(0);
  });

  test('when tens of thousands of ids pass through, then exactly the last maxIds are remembered', () => {
    const ids = createRecentIds({ maxIds: 20_000 });
    for (let n = 0; n < 100_000; n += 1) ids.add(`chat:${uuid(n)}`, n);
    expect(ids.size).toBe(20_000);
    expect(ids.has(`chat:${uuid(79_999)}`, 100_000)).toBe(false);
    expect(ids.has(`chat:${uuid(80_000)}`, 100_000)).toBe(true);
    expect(ids.has(`chat:${uuid(99_999)}`, 100_000)).toBe(true);
  });

  test('when a time is not whole milliseconds, then it is taken to the millisecond', () => {
    const ids = createRecentIds({ maxIds: 10, keepMs: 10 });
    expect(ids.isNew(uuid(1), 100.7)).toBe(true);
    expect(ids.has(uuid(1), 109.9)).toBe(true);
    expect(ids.has(uuid(1), 110.2)).toBe(false);
  });

  test('when maxIds is not a positive whole number, then it is refused', () => {
    expect(() => createRecentIds({ maxIds: 0 })).toThrow('recent ids hold at least one id (asked: 0)');
  });
});
