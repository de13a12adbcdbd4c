import { randomUUID } from 'node:crypto';
import { createTestStore, type TestStore } from '../testing/test-store';
import { collectionRecentLog, recentLogTrimEvery } from './collection-recent-log';
import type { Document } from './store';

// MongoDB's recent log (documents) over the embedded store's collections: its own logic, without an
// engine (the contract runs it on MongoDB itself: mongo-store.int.test.ts)
type Line = { text: string };
type LineDocument = Document & Record<string, unknown>;
const spec = { keepPerKey: 3, keyField: 'userId', atField: 'at' };
const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 20, 0, seconds));

let testStore: TestStore;
beforeAll(async () => {
  testStore = await createTestStore('collection-recent-log');
});
afterAll(() => testStore.close());

const openLog = async () => {
  const collection = testStore.store.collection<LineDocument>(`lines-${randomUUID()}`);
  const log = collectionRecentLog<Line>(collection, spec);
  await log.open();
  return { collection, log };
};

describe('the recent log as documents (collection-recent-log.ts)', () => {
  test('when an id is appended again, then append says it was kept already and the document is unchanged', async () => {
    const { collection, log } = await openLog();
    expect(await log.append('u1', 'm1', at(1), { text: 'first' })).toBe(true);
    expect(await log.append('u1', 'm1', at(2), { text: 'again' })).toBe(false);
    expect(await collection.find({})).toEqual([{ _id: 'm1', userId: 'u1', at: at(1), text: 'first' }]);
  });

  test('when a range is read before the next trim, then the documents beyond keepPerKey are trimmed first and not returned', async () => {
    const { collection, log } = await openLog();
    for (let n = 1; n <= 5; n++) await log.append('u1', `m${n}`, at(n), { text: `line ${n}` });
    // trimmed at the first append only: the next trim comes after recentLogTrimEvery appends
    expect(recentLogTrimEvery).toBeGreaterThan(5);
    expect(await collection.count({ userId: 'u1' })).toBe(5);

    const items = await log.range('u1', at(0), at(10));

    expect(items.map((item) => [item.id, item.entry.text])).toEqual([
      ['m3', 'line 3'],
      ['m4', 'line 4'],
      ['m5', 'line 5'],
    ]);
    expect(await collection.count({ userId: 'u1' })).toBe(3);
    expect((await log.range('u1', at(4), at(5))).map((item) => item.id)).toEqual(['m4']);
  });

  test('when entries share a date, then a range orders them by id', async () => {
    const { log } = await openLog();
    await log.append('u1', 'b', at(2), { text: 'b' });
    await log.append('u1', 'a', at(2), { text: 'a' });
    await log.append('u1', 'c', at(1), { text: 'c' });
    expect((await log.range('u1', at(0), at(3))).map((item) => item.id)).toEqual(['c', 'a', 'b']);
  });
});
