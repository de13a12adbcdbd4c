import { seededRandom } from '../random';
import { randomUlid, randomUuid } from '../testing/random-ids';
import { createRecentMemory, emptyEntries } from './recent-memory';

/** The key's entries as [id, at, seg, offset, length, text]. */
const rowsOf = (memory: ReturnType<typeof createRecentMemory>, key: string, limit = 100) => {
  const { ids, ats, segs, offsets, lengths, texts } = memory.recent(key, limit);
  return ids.map((id, i) => [id, ats[i], segs[i], offsets[i], lengths[i], texts[i]]);
};

describe('the recent log memory (recent-memory.ts)', () => {
  test('when more entries than keepPerKey come, in any order, then the newest are kept by date then id, past the first capacity', () => {
    const memory = createRecentMemory(10);
    // dates 1..25 in a scrambled order; each placed at segment 0, offset 100 × date
    const order = [5, 1, 9, 13, 2, 25, 17, 3, 21, 8, 12, 4, 16, 20, 7, 24, 11, 6, 15, 19, 23, 10, 14, 18, 22];
    for (const n of order) memory.insertPlaced('k', `m${n}`, n, 0, 100 * n, n);
    expect(memory.insertPlaced('k', 'm1', 1, 0, 100, 1)).toBe(false); // older than every kept one
    expect(memory.insertPlaced('k', 'm20', 20, 0, 2000, 20)).toBe(false); // held already
    expect(memory.size()).toBe(10);
    const expected = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25].map((n) => [`m${n}`, n, 0, 100 * n, n, undefined]);
    expect(rowsOf(memory, 'k')).toEqual(expected);
    expect(rowsOf(memory, 'k', 2)).toEqual(expected.slice(8));
    expect(rowsOf(memory, 'nobody')).toEqual([]);
  });

  test('when entries between two dates are asked, then they are the held ones from the first date up to the second (excluded)', () => {
    const memory = createRecentMemory(4);
    for (const n of [1, 2, 3, 3, 5]) memory.insertPlaced('k', `m${n}-${memory.size()}`, n, 0, 10 * n, n);
    expect(memory.insertPending('k', 'm0', 0, '{}')).toBe('older');
    const between = (fromMs: number, toMs: number) => memory.between('k', fromMs, toMs).ids;
    // held: m2-1 (2), m3-2 (3), m3-3 (3), m5-4 (5); m1-0 was pushed out
    expect(between(0, 100)).toEqual(['m2-1', 'm3-2', 'm3-3', 'm5-4']);
    expect(between(3, 5)).toEqual(['m3-2', 'm3-3']);
    expect(between(3, 6)).toEqual(['m3-2', 'm3-3', 'm5-4']);
    expect(between(4, 5)).toEqual([]);
    expect(between(5, 5)).toEqual([]);
    expect(memory.between('nobody', 0, 100).ids).toEqual([]);
  });

  test('when a pending entry is placed, then its text is dropped for its place; a stale number places nothing', () => {
    const memory = createRecentMemory(3);
    const first = memory.insertPending('k', 'a', 1, '{"text":"a"}') as number;
    const second = memory.insertPending('k', 'b', 2, '{"text":"b"}') as number;
    expect(memory.insertPending('k', 'a', 3, '{"text":"again"}')).toBe('held');
    expect(rowsOf(memory, 'k')).toEqual([
      ['a', 1, -1, first, 0, '{"text":"a"}'],
      ['b', 2, -1, second, 0, '{"text":"b"}'],
    ]);
    memory.place('k', 'a', first, 4, 40, 12);
    memory.place('k', 'b', first, 4, 80, 12); // not b's number
    expect(rowsOf(memory, 'k')).toEqual([
      ['a', 1, 4, 40, 12, undefined],
      ['b', 2, -1, second, 0, '{"text":"b"}'],
    ]);
  });

  test('when a pending entry is pushed out and its id appended again, then the first write places nothing, the second does', () => {
    const memory = createRecentMemory(2);
    const old = memory.insertPending('k', 'a', 1, '{"v":1}') as number;
    memory.insertPending('k', 'b', 2, '{"v":2}');
    memory.insertPending('k', 'c', 3, '{"v":3}'); // pushes a out
    const again = memory.insertPending('k', 'a', 4, '{"v":4}') as number; // pushes b out
    memory.place('k', 'a', old, 1, 10, 7);
    expect(rowsOf(memory, 'k')[1]).toEqual(['a', 4, -1, again, 0, '{"v":4}']);
    memory.place('k', 'a', again, 1, 50, 7);
    expect(rowsOf(memory, 'k')[1]).toEqual(['a', 4, 1, 50, 7, undefined]);
  });

  test('when a compaction relocates a snapshot, then only the entries still held as they were then move', () => {
    const memory = createRecentMemory(3);
    memory.insertPlaced('k', 'a', 1, 0, 0, 5);
    memory.insertPlaced('k', 'b', 2, 0, 10, 5);
    const pendingC = memory.insertPending('k', 'c', 3, '{"c":1}') as number;
    const [snapshot] = memory.snapshot();
    expect(snapshot?.entries().texts).toEqual([undefined, undefined, '{"c":1}']);
    memory.insertPlaced('k', 'd', 4, 2, 0, 5); // pushes a out
    // b unchanged; c: its line written to segment 2 meanwhile
    memory.place('k', 'c', pendingC, 2, 20, 7);
    memory.relocate('k', snapshot?.entries() ?? emptyEntries(), 1, {
      offsets: [100, 110, 120],
      lengths: [5, 5, 7],
    });
    expect(rowsOf(memory, 'k')).toEqual([
      ['b', 2, 1, 110, 5, undefined],
      ['c', 3, 2, 20, 7, undefined],
      ['d', 4, 2, 0, 5, undefined],
    ]);
  });

  test('when a compaction relocates an entry still pending, then it is placed there and its later write places nothing', () => {
    const memory = createRecentMemory(3);
    const pending = memory.insertPending('k', 'a', 1, '{"a":1}') as number;
    const [snapshot] = memory.snapshot();
    memory.relocate('k', snapshot?.entries() ?? emptyEntries(), 5, {
      offsets: [30],
      lengths: [7],
    });
    memory.place('k', 'a', pending, 6, 0, 7);
    expect(rowsOf(memory, 'k')).toEqual([['a', 1, 5, 30, 7, undefined]]);
  });

  test('when ids are UUIDs and ULIDs, prefixed or not, beside plain ones, then each is held once, found and read back exactly, by date then id', () => {
    const random = seededRandom(5);
    const memory = createRecentMemory(6);
    const ids = [
      randomUuid(random),
      `chat:${randomUuid(random)}`,
      randomUlid(random),
      `event:${randomUlid(random)}`,
      '!plain',
    ];
    // all at one date: their order is the ids' own, as strings
    ids.forEach((id, i) => memory.insertPlaced('k', id, 7, 0, 10 * i, 5));
    for (const id of ids) expect(memory.insertPlaced('k', id, 7, 0, 0, 5)).toBe(false);
    const byId = [...ids].sort();
    expect(memory.recent('k', 10).ids).toEqual(byId);
    expect(memory.recent('k', 10).offsets).toEqual(byId.map((id) => 10 * ids.indexOf(id)));
    const later = randomUuid(random);
    const pending = memory.insertPending('k', later, 8, '{"later":1}') as number;
    expect(memory.insertPending('k', later, 9, '{}')).toBe('held');
    memory.place('k', later, pending, 3, 30, 11);
    expect(memory.recent('k', 1).ids).toEqual([later]);
    expect(memory.recent('k', 1).segs).toEqual([3]);
    // two more push the two oldest out (the plain id, first by its '!', among them); the others are still held
    memory.insertPlaced('k', randomUuid(random), 9, 0, 0, 5);
    memory.insertPlaced('k', randomUuid(random), 10, 0, 0, 5);
    expect(memory.size()).toBe(6);
    expect(memory.recent('k', 6).ids.slice(0, 3)).toEqual(byId.slice(2));
    expect(byId.slice(2).every((id) => !memory.insertPlaced('k', id, 7, 0, 0, 5))).toBe(true);
  });

  test('when a compaction relocates a snapshot of UUID ids, then each entry still held moves, one pushed out does not come back', () => {
    const random = seededRandom(6);
    const memory = createRecentMemory(3);
    const [a, b, c, d] = [randomUuid(random), randomUuid(random), randomUuid(random), randomUuid(random)];
    const [first, second] = [b, c].sort(); // b and c share a date: their order is the ids'
    memory.insertPlaced('k', a, 1, 0, 0, 5);
    memory.insertPlaced('k', b, 2, 0, 10, 5);
    memory.insertPlaced('k', c, 2, 0, 20, 5);
    const [snapshot] = memory.snapshot();
    expect(snapshot?.entries().ids).toEqual([a, first, second]);
    memory.insertPlaced('k', d, 4, 2, 0, 5); // pushes a out
    memory.relocate('k', snapshot?.entries() ?? emptyEntries(), 1, { offsets: [100, 110, 120], lengths: [5, 5, 5] });
    expect(rowsOf(memory, 'k')).toEqual([
      [first, 2, 1, 110, 5, undefined],
      [second, 2, 1, 120, 5, undefined],
      [d, 4, 2, 0, 5, undefined],
    ]);
  });

  test('when segments are asked for, then they are those the held entries point at, pending ones as -1', () => {
    const memory = createRecentMemory(2);
    memory.insertPlaced('k', 'a', 1, 3, 0, 5);
    memory.insertPlaced('k', 'b', 2, 4, 0, 5);
    memory.insertPlaced('j', 'c', 1, 7, 0, 5);
    memory.insertPending('k', 'd', 3, '{}'); // pushes a out
    expect([...memory.segmentsInUse()].sort((x, y) => x - y)).toEqual([-1, 4, 7]);
  });
});
