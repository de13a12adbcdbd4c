import { randomUUID } from 'node:crypto';
import { createFakeClock, type FakeClock } from '../testing/fake-clock';
import { DuplicateKeyError, type Collection, type Document, type Store } from './store';

/** The sweep interval a contract run's makeStore must pass, so the sweep test need not wait long. */
export const storeContractSweepIntervalMs = 50;

// Far in the future: a native TTL monitor (MongoDB's) works on wall-clock time and must never
// delete a test's documents; only the injected clock decides expiry here.
const contractStart = new Date('2100-01-01T00:00:00Z');

type Item = Document & Record<string, unknown>;

/**
 * ONE suite that every Store adapter must pass. `makeStore` is called once per test with that
 * test's fake clock and must use `storeContractSweepIntervalMs`; the store is closed after the
 * test. `cleanup` runs once at the end (drop a database, remove a directory).
 */
export function storeContract(
  name: string,
  makeStore: (clock: FakeClock) => Promise<Store>,
  cleanup?: () => Promise<void>,
): void {
  describe(`store contract: ${name}`, () => {
    let clock: FakeClock;
    let store: Store;

    beforeEach(async () => {
      clock = createFakeClock(contractStart);
      store = await makeStore(clock);
    });

    afterEach(async () => {
      await store.close();
    });

    if (cleanup) afterAll(cleanup);

    // fresh names keep runs against a shared server apart
    const fresh = (label: string): Collection<Item> => store.collection<Item>(`${label}-${randomUUID()}`);
    const idsOf = (docs: Item[]): string[] => docs.map((doc) => doc._id);

    describe('insertOne and findOne', () => {
      test('when a document is inserted, then findOne returns exactly its fields', async () => {
        const items = fresh('items');
        const inserted = await items.insertOne({ _id: 'i1', name: 'axe', stats: { damage: 5 }, tags: ['red'] });
        expect(inserted).toEqual({ _id: 'i1', name: 'axe', stats: { damage: 5 }, tags: ['red'] });
        expect(await items.findOne({ name: 'axe' })).toStrictEqual({
          _id: 'i1',
          name: 'axe',
          stats: { damage: 5 },
          tags: ['red'],
        });
      });

      test('when a document has no _id, then the store assigns a string _id', async () => {
        const items = fresh('items');
        const inserted = await items.insertOne({ name: 'bow' });
        expect(typeof inserted._id).toBe('string');
        expect(inserted._id.length).toBeGreaterThan(0);
        expect(await items.findOne({ _id: inserted._id })).toEqual({ _id: inserted._id, name: 'bow' });
      });

      test('when an _id is inserted twice, then the second insert throws DuplicateKeyError', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'same', name: 'first' });
        await expect(items.insertOne({ _id: 'same', name: 'second' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await items.find({})).toEqual([{ _id: 'same', name: 'first' }]);
      });

      test('when nothing matches, then findOne returns null', async () => {
        const items = fresh('items');
        await items.insertOne({ name: 'axe' });
        expect(await items.findOne({ name: 'nothing' })).toBeNull();
      });

      test('when a document holds dates, then they come back as Date objects with the same instant', async () => {
        const items = fresh('items');
        const at = new Date('2100-03-04T05:06:07.089Z');
        await items.insertOne({ _id: 'd1', at, nested: { at }, list: [at] });
        const found = await items.findOne({ _id: 'd1' });
        expect(found?.at).toBeInstanceOf(Date);
        expect(found).toEqual({ _id: 'd1', at, nested: { at }, list: [at] });
        expect(await items.findOne({ at: { $gte: at } })).not.toBeNull();
      });

      test('when two collections are used, then each sees only its own documents', async () => {
        const first = fresh('first');
        const second = fresh('second');
        await first.insertOne({ _id: 'shared-id', owner: 'first' });
        await second.insertOne({ _id: 'shared-id', owner: 'second' });
        expect(await first.find({})).toEqual([{ _id: 'shared-id', owner: 'first' }]);
        expect(await second.count()).toBe(1);
        await first.deleteMany({});
        expect(await second.findOne({ _id: 'shared-id' })).toEqual({ _id: 'shared-id', owner: 'second' });
      });
    });

    describe('find and count', () => {
      let items: Collection<Item>;

      beforeEach(async () => {
        items = fresh('weapons');
        await items.insertOne({ _id: 'a', name: 'axe', n: 1, group: 'x', tags: ['red', 'big'], owner: { id: 'u1' } });
        await items.insertOne({ _id: 'b', name: 'bow', n: 2, group: 'x', tags: ['blue'], owner: { id: 'u2' } });
        await items.insertOne({ _id: 'c', name: 'club', n: 3, group: 'y', owner: { id: 'u1' } });
        await items.insertOne({ _id: 'd', name: 'dagger', n: 4, group: 'y', tags: ['red'] });
      });

      const idsFor = async (filter: Record<string, unknown>): Promise<string[]> =>
        idsOf(await items.find(filter, { sort: { _id: 1 } }));

      test('when filtering by equality, $in and $nin, then only matching documents come back', async () => {
        expect(await idsFor({ group: 'x' })).toEqual(['a', 'b']);
        expect(await idsFor({ name: { $in: ['axe', 'club', 'sword'] } })).toEqual(['a', 'c']);
        expect(await idsFor({ name: { $nin: ['axe', 'club'] } })).toEqual(['b', 'd']);
        expect(await idsFor({ n: { $eq: 2 } })).toEqual(['b']);
      });

      test('when filtering an array field by a value or $in, then documents holding that element match', async () => {
        expect(await idsFor({ tags: 'red' })).toEqual(['a', 'd']);
        expect(await idsFor({ tags: { $in: ['blue', 'big'] } })).toEqual(['a', 'b']);
      });

      test('when filtering with $gt, $gte, $lt and $lte, then the bounds hold', async () => {
        expect(await idsFor({ n: { $gt: 1, $lt: 4 } })).toEqual(['b', 'c']);
        expect(await idsFor({ n: { $gte: 3 } })).toEqual(['c', 'd']);
        expect(await idsFor({ n: { $lte: 1 } })).toEqual(['a']);
      });

      test('when filtering with $ne, then documents missing the field match too', async () => {
        expect(await idsFor({ group: { $ne: 'x' } })).toEqual(['c', 'd']);
        expect(await idsFor({ tags: { $ne: 'blue' } })).toEqual(['a', 'c', 'd']);
      });

      test('when filtering an array field with $ne or $nin, then a document holding that element does not match', async () => {
        // `a` holds ['red', 'big']: an element other than 'red' does not make it match
        expect(await idsFor({ tags: { $ne: 'red' } })).toEqual(['b', 'c']);
        expect(await idsFor({ tags: { $nin: ['red', 'blue'] } })).toEqual(['c']);
        expect(await idsFor({ tags: { $nin: ['big'] } })).toEqual(['b', 'c', 'd']);
      });

      test('when filtering by null, then documents missing the field match and $ne: null needs a value', async () => {
        await items.insertOne({ _id: 'e', name: 'empty', n: 5, group: null });
        expect(await idsFor({ group: null })).toEqual(['e']);
        expect(await idsFor({ tags: null })).toEqual(['c', 'e']);
        expect(await idsFor({ tags: { $eq: null } })).toEqual(['c', 'e']);
        expect(await idsFor({ group: { $ne: null } })).toEqual(['a', 'b', 'c', 'd']);
        expect(await idsFor({ tags: { $ne: null, $exists: true } })).toEqual(['a', 'b', 'd']);
      });

      test('when filtering with $exists, then presence decides', async () => {
        expect(await idsFor({ tags: { $exists: false } })).toEqual(['c']);
        expect(await idsFor({ tags: { $exists: true } })).toEqual(['a', 'b', 'd']);
      });

      test('when filtering with $regex, then the pattern and its flags apply', async () => {
        expect(await idsFor({ name: { $regex: /^(b|c)/ } })).toEqual(['b', 'c']);
        expect(await idsFor({ name: { $regex: /AXE/i } })).toEqual(['a']);
      });

      test('when filtering with $or and $and, then the clauses combine', async () => {
        expect(await idsFor({ $or: [{ n: 1 }, { group: 'y', n: { $gt: 3 } }] })).toEqual(['a', 'd']);
        expect(await idsFor({ $and: [{ group: 'x' }, { n: { $gt: 1 } }] })).toEqual(['b']);
      });

      test('when filtering on a dot path, then the nested field decides', async () => {
        expect(await idsFor({ 'owner.id': 'u1' })).toEqual(['a', 'c']);
      });

      test('when sorting ascending or descending, then the order follows', async () => {
        expect(idsOf(await items.find({}, { sort: { n: 1 } }))).toEqual(['a', 'b', 'c', 'd']);
        expect(idsOf(await items.find({}, { sort: { n: -1 } }))).toEqual(['d', 'c', 'b', 'a']);
      });

      test('when sorting by two keys, then the second breaks ties of the first', async () => {
        expect(idsOf(await items.find({}, { sort: { group: 1, n: -1 } }))).toEqual(['b', 'a', 'd', 'c']);
        expect(idsOf(await items.find({}, { sort: { group: -1, name: 1 } }))).toEqual(['c', 'd', 'a', 'b']);
      });

      test('when skipping and limiting, then that page of the sorted result comes back', async () => {
        expect(idsOf(await items.find({}, { sort: { n: 1 }, skip: 1, limit: 2 }))).toEqual(['b', 'c']);
        expect(idsOf(await items.find({}, { sort: { n: -1 }, limit: 1 }))).toEqual(['d']);
        expect(idsOf(await items.find({}, { sort: { n: 1 }, skip: 3 }))).toEqual(['d']);
      });

      test('when counting, then the filter applies and no filter counts everything', async () => {
        expect(await items.count()).toBe(4);
        expect(await items.count({ group: 'y' })).toBe(2);
        expect(await items.count({ n: { $gt: 10 } })).toBe(0);
      });
    });

    describe('updateOne and updateMany', () => {
      test('when $set and $unset are applied, then fields (also on dot paths) change', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', name: 'axe', old: true, stats: { damage: 1 } });
        const result = await items.updateOne(
          { _id: 'u' },
          { $set: { name: 'great axe', 'stats.damage': 7, 'stats.speed': 2 }, $unset: { old: true } },
        );
        expect(result).toEqual({ matchedCount: 1, modifiedCount: 1 });
        expect(await items.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          name: 'great axe',
          stats: { damage: 7, speed: 2 },
        });
      });

      test('when $inc is applied, then numbers grow and missing fields start from zero', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', hp: 10 });
        await items.updateOne({ _id: 'u' }, { $inc: { hp: -3, kills: 1, 'damage.viewer-1': 5 } });
        expect(await items.findOne({ _id: 'u' })).toEqual({ _id: 'u', hp: 7, kills: 1, damage: { 'viewer-1': 5 } });
      });

      test('when $max is applied, then a field takes the value only when it is missing, null or smaller', async () => {
        const items = fresh('items');
        const earlier = new Date('2026-11-25T10:00:00Z');
        const later = new Date('2026-11-25T11:00:00Z');
        await items.insertOne({ _id: 'u', best: 5, seenAt: later, lastAt: null });
        await items.updateOne({ _id: 'u' }, { $max: { best: 3, seenAt: earlier, lastAt: earlier, firstAt: earlier } });
        expect(await items.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          best: 5,
          seenAt: later,
          lastAt: earlier,
          firstAt: earlier,
        });
        await items.updateOne({ _id: 'u' }, { $max: { best: 8, seenAt: new Date('2026-11-25T12:00:00Z') } });
        expect(await items.findOne({ _id: 'u' })).toMatchObject({ best: 8, seenAt: new Date('2026-11-25T12:00:00Z') });
      });

      test('when an upsert with $inc and $max inserts, then the new document holds both values', async () => {
        const items = fresh('items');
        const at = new Date('2026-11-25T10:00:00Z');
        await items.updateOne(
          { _id: 'u' },
          { $inc: { 'hours.2026-11-25T10': 1 }, $max: { lastAt: at }, $setOnInsert: { owner: 'o' } },
          { upsert: true },
        );
        expect(await items.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          hours: { '2026-11-25T10': 1 },
          lastAt: at,
          owner: 'o',
        });
      });

      test('when $push is applied with a value or $each, then the elements are appended', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', log: ['a'] });
        await items.updateOne({ _id: 'u' }, { $push: { log: 'b' } });
        await items.updateOne({ _id: 'u' }, { $push: { log: { $each: ['c', 'd'] }, outbox: { $each: [{ id: 1 }] } } });
        expect(await items.findOne({ _id: 'u' })).toEqual({ _id: 'u', log: ['a', 'b', 'c', 'd'], outbox: [{ id: 1 }] });
      });

      test('when $pull is applied with a value or an equality filter, then the matching elements go', async () => {
        const items = fresh('items');
        await items.insertOne({
          _id: 'u',
          tags: ['a', 'b', 'a', 'c'],
          outbox: [
            { id: 1, topic: 'chat.send' },
            { id: 2, topic: 'game.event' },
            { id: 3, topic: 'chat.send' },
          ],
        });
        await items.updateOne({ _id: 'u' }, { $pull: { tags: 'a', outbox: { id: 2 } } });
        expect(await items.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          tags: ['b', 'c'],
          outbox: [
            { id: 1, topic: 'chat.send' },
            { id: 3, topic: 'chat.send' },
          ],
        });
        await items.updateOne({ _id: 'u' }, { $pull: { outbox: { topic: 'chat.send' } } });
        expect(await items.findOne({ _id: 'u' })).toEqual({ _id: 'u', tags: ['b', 'c'], outbox: [] });
      });

      test('when the filter matches several documents, then updateOne changes exactly one', async () => {
        const items = fresh('items');
        await items.insertOne({ group: 'g', n: 0 });
        await items.insertOne({ group: 'g', n: 0 });
        expect(await items.updateOne({ group: 'g' }, { $inc: { n: 1 } })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
        });
        expect(await items.count({ n: 1 })).toBe(1);
        expect(await items.count({ n: 0 })).toBe(1);
      });

      test('when nothing matches and there is no upsert, then nothing changes and the counts are zero', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', n: 0 });
        expect(await items.updateOne({ _id: 'other' }, { $set: { n: 1 } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
        });
        expect(await items.count()).toBe(1);
      });

      test('when $set writes the value already there, then the document matched but was not modified', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', n: 1 });
        expect(await items.updateOne({ _id: 'u' }, { $set: { n: 1 } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
      });

      test('when updateMany is applied, then every matching document changes and the counts say so', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'a', group: 'g', n: 1 });
        await items.insertOne({ _id: 'b', group: 'g', n: 2 });
        await items.insertOne({ _id: 'c', group: 'h', n: 3 });
        expect(await items.updateMany({ group: 'g' }, { $inc: { n: 10 }, $set: { seen: true } })).toEqual({
          matchedCount: 2,
          modifiedCount: 2,
        });
        expect(await items.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', group: 'g', n: 11, seen: true },
          { _id: 'b', group: 'g', n: 12, seen: true },
          { _id: 'c', group: 'h', n: 3 },
        ]);
        expect(await items.updateMany({ group: 'none' }, { $set: { seen: true } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
        });
      });

      test('when an upsert matches nothing, then it inserts the filter equalities, $set and $setOnInsert and returns the string upsertedId', async () => {
        const items = fresh('items');
        const result = await items.updateOne(
          { channel: 'c1', 'owner.id': 'u1', n: { $gt: 5 } },
          { $set: { title: 'hello' }, $setOnInsert: { createdAt: clock.now() } },
          { upsert: true },
        );
        expect(result.matchedCount).toBe(0);
        expect(result.modifiedCount).toBe(0);
        expect(typeof result.upsertedId).toBe('string');
        expect(await items.findOne({ _id: result.upsertedId })).toEqual({
          _id: result.upsertedId,
          channel: 'c1',
          owner: { id: 'u1' },
          title: 'hello',
          createdAt: clock.now(),
        });
      });

      test('when an upsert names the _id, then the inserted document gets that _id', async () => {
        const items = fresh('items');
        const result = await items.updateOne({ _id: 'settings' }, { $inc: { version: 1 } }, { upsert: true });
        expect(result.upsertedId).toBe('settings');
        expect(await items.findOne({ _id: 'settings' })).toEqual({ _id: 'settings', version: 1 });
      });

      test('when an upsert matches a document, then it updates it and leaves $setOnInsert fields alone', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', channel: 'c1', createdAt: new Date('2100-01-01T00:00:00Z') });
        clock.advance(1000);
        const result = await items.updateOne(
          { channel: 'c1' },
          { $set: { title: 'again' }, $setOnInsert: { createdAt: clock.now() } },
          { upsert: true },
        );
        expect(result).toEqual({ matchedCount: 1, modifiedCount: 1 });
        expect(await items.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          channel: 'c1',
          title: 'again',
          createdAt: new Date('2100-01-01T00:00:00Z'),
        });
      });

      test('when updateEach is given several writes, then each is applied as its updateOne would be', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'a', hits: 1 });
        const outcomes = await items.updateEach([
          { filter: { _id: 'a' }, update: { $inc: { hits: 2 }, $set: { seen: true } }, upsert: true },
          { filter: { _id: 'b' }, update: { $inc: { hits: 5 } }, upsert: true },
          { filter: { _id: 'c' }, update: { $inc: { hits: 7 } } },
        ]);
        expect(outcomes).toEqual([undefined, undefined, undefined]);
        expect(await items.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', hits: 3, seen: true },
          { _id: 'b', hits: 5 },
        ]);
        expect(await items.updateEach([])).toEqual([]);
      });

      test('when one write of updateEach breaks a unique index, then only that one fails, with a DuplicateKeyError', async () => {
        const items = fresh('items');
        await items.createIndex({ fields: { key: 1 }, unique: true });
        await items.insertOne({ _id: 'a', key: 'k1' });
        await items.insertOne({ _id: 'b', key: 'k2' });
        const outcomes = await items.updateEach([
          { filter: { _id: 'a' }, update: { $set: { n: 1 } } },
          { filter: { _id: 'b' }, update: { $set: { key: 'k1' } } },
          { filter: { _id: 'c' }, update: { $set: { key: 'k3' } }, upsert: true },
        ]);
        expect(outcomes[0]).toBeUndefined();
        expect(outcomes[1]).toBeInstanceOf(DuplicateKeyError);
        expect(outcomes[2]).toBeUndefined();
        expect(await items.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', key: 'k1', n: 1 },
          { _id: 'b', key: 'k2' },
          { _id: 'c', key: 'k3' },
        ]);
      });

      test('when an update uses an operator outside the port, then it is rejected', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', tags: [] });
        await expect(items.updateOne({ _id: 'u' }, { $addToSet: { tags: 'a' } } as never)).rejects.toThrow(
          /unsupported update operator/,
        );
      });
    });

    describe('findOneAndUpdate', () => {
      test('when a document matches, then the document after the update is returned by default', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', n: 1 });
        expect(await items.findOneAndUpdate({ _id: 'u' }, { $inc: { n: 1 } })).toEqual({ _id: 'u', n: 2 });
        expect(await items.findOneAndUpdate({ _id: 'u' }, { $inc: { n: 1 } }, { returnDocument: 'after' })).toEqual({
          _id: 'u',
          n: 3,
        });
      });

      test('when asked for the document before, then the old state is returned and the new one stored', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'u', n: 1 });
        expect(await items.findOneAndUpdate({ _id: 'u' }, { $inc: { n: 1 } }, { returnDocument: 'before' })).toEqual({
          _id: 'u',
          n: 1,
        });
        expect(await items.findOne({ _id: 'u' })).toEqual({ _id: 'u', n: 2 });
      });

      test('when nothing matches, then null is returned and nothing is inserted', async () => {
        const items = fresh('items');
        expect(await items.findOneAndUpdate({ _id: 'missing' }, { $set: { n: 1 } })).toBeNull();
        expect(await items.count()).toBe(0);
      });

      test('when an upsert matches nothing, then the new document is returned (or null when asked for before)', async () => {
        const items = fresh('items');
        const created = await items.findOneAndUpdate(
          { key: 'k1' },
          { $inc: { n: 1 }, $setOnInsert: { createdAt: clock.now() } },
          { upsert: true },
        );
        expect(created).toEqual({ _id: expect.any(String), key: 'k1', n: 1, createdAt: clock.now() });
        expect(
          await items.findOneAndUpdate({ key: 'k2' }, { $inc: { n: 1 } }, { upsert: true, returnDocument: 'before' }),
        ).toBeNull();
        expect(await items.findOne({ key: 'k2' })).toEqual({ _id: expect.any(String), key: 'k2', n: 1 });
      });

      test('when 20 increments run concurrently on one document, then it ends at exactly 20', async () => {
        const items = fresh('counters');
        await items.insertOne({ _id: 'counter', n: 0 });
        await Promise.all(
          Array.from({ length: 20 }, () => items.findOneAndUpdate({ _id: 'counter' }, { $inc: { n: 1 } })),
        );
        expect(await items.findOne({ _id: 'counter' })).toEqual({ _id: 'counter', n: 20 });
      });

      test('when two writers guard on the same version concurrently, then exactly one of them wins', async () => {
        const items = fresh('games');
        await items.insertOne({ _id: 'game', version: 1, hp: 100 });
        const attempt = (damage: number) =>
          items.findOneAndUpdate({ _id: 'game', version: 1 }, { $set: { version: 2 }, $inc: { hp: -damage } });
        const results = await Promise.all([attempt(10), attempt(20)]);
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(await items.findOne({ _id: 'game' })).toEqual(winners[0]);
      });
    });

    describe('deleteOne and deleteMany', () => {
      test('when deleting, then the number of deleted documents is returned', async () => {
        const items = fresh('items');
        for (const n of [1, 2, 3, 4]) await items.insertOne({ group: n <= 3 ? 'g' : 'h', n });
        expect(await items.deleteOne({ group: 'g' })).toBe(1);
        expect(await items.count({ group: 'g' })).toBe(2);
        expect(await items.deleteMany({ group: 'g' })).toBe(2);
        expect(await items.deleteOne({ group: 'g' })).toBe(0);
        expect(await items.deleteMany({ group: 'g' })).toBe(0);
        expect(await items.find({})).toEqual([{ _id: expect.any(String), group: 'h', n: 4 }]);
      });
    });

    describe('unique indexes', () => {
      test('when a unique value is inserted twice, then DuplicateKeyError names the collection', async () => {
        const name = `claims-${randomUUID()}`;
        const claims = store.collection<Item>(name);
        await claims.createIndex({ fields: { key: 1 }, unique: true });
        await claims.insertOne({ key: 'reply:1' });
        const error: unknown = await claims.insertOne({ key: 'reply:1' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect((error as DuplicateKeyError).collection).toBe(name);
        expect(await claims.count()).toBe(1);
      });

      test('when createIndex is called twice, then the second call is a no-op and uniqueness still holds', async () => {
        const claims = fresh('claims');
        await claims.createIndex({ fields: { key: 1 }, unique: true });
        await claims.insertOne({ key: 'a' });
        await claims.createIndex({ fields: { key: 1 }, unique: true });
        await expect(claims.insertOne({ key: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      test('when an update or upsert would collide on a unique value, then DuplicateKeyError and nothing changes', async () => {
        const users = fresh('users');
        await users.createIndex({ fields: { email: 1 }, unique: true });
        await users.insertOne({ _id: 'u1', email: 'a@x' });
        await users.insertOne({ _id: 'u2', email: 'b@x' });
        await expect(users.updateOne({ _id: 'u2' }, { $set: { email: 'a@x' } })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(users.findOneAndUpdate({ _id: 'u2' }, { $set: { email: 'a@x' } })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(
          users.updateOne({ _id: 'u3' }, { $set: { email: 'a@x' } }, { upsert: true }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(
          users.findOneAndUpdate({ name: 'new' }, { $setOnInsert: { email: 'b@x' } }, { upsert: true }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await users.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'u1', email: 'a@x' },
          { _id: 'u2', email: 'b@x' },
        ]);
      });

      test('when an upsert matches nothing but its filter names a taken _id, then DuplicateKeyError and the holder is untouched', async () => {
        const items = fresh('items');
        await items.insertOne({ _id: 'x', n: 1 });
        await expect(
          items.updateOne({ _id: 'x', n: { $gt: 5 } }, { $set: { n: 10 } }, { upsert: true }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(
          items.findOneAndUpdate({ _id: 'x', n: 2 }, { $inc: { n: 1 } }, { upsert: true }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await items.find({})).toEqual([{ _id: 'x', n: 1 }]);
      });

      test('when a unique index is created over values that already repeat, then DuplicateKeyError', async () => {
        const users = fresh('users');
        await users.insertOne({ email: 'a@x' });
        await users.insertOne({ email: 'a@x' });
        await expect(users.createIndex({ fields: { email: 1 }, unique: true })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
      });

      test('when a compound unique index holds, then only the full combination must be unique', async () => {
        const members = fresh('members');
        await members.createIndex({ fields: { channel: 1, user: 1 }, unique: true });
        await members.insertOne({ channel: 'c1', user: 'u1' });
        await members.insertOne({ channel: 'c1', user: 'u2' });
        await members.insertOne({ channel: 'c2', user: 'u1' });
        await expect(members.insertOne({ channel: 'c1', user: 'u1' })).rejects.toBeInstanceOf(DuplicateKeyError);
      });
    });

    describe('expiry (TTL)', () => {
      const ttlSeconds = 60;

      test('when the clock passes date + expireAfterSeconds, then reads and updates no longer see the document', async () => {
        const sessions = fresh('sessions');
        await sessions.createIndex({ fields: { seenAt: 1 }, expireAfterSeconds: ttlSeconds });
        await sessions.insertOne({ _id: 'old', seenAt: clock.now(), n: 0 });
        clock.advance(30_000);
        await sessions.insertOne({ _id: 'new', seenAt: clock.now(), n: 0 });
        await sessions.insertOne({ _id: 'undated', n: 0 });

        clock.advance(29_000); // 'old' is 59 s old
        expect(await sessions.count()).toBe(3);

        clock.advance(2_000); // 'old' is 61 s old, 'new' 31 s
        expect(await sessions.findOne({ _id: 'old' })).toBeNull();
        expect(idsOf(await sessions.find({}, { sort: { _id: 1 } }))).toEqual(['new', 'undated']);
        expect(await sessions.count()).toBe(2);
        expect(await sessions.findOneAndUpdate({ _id: 'old' }, { $inc: { n: 1 } })).toBeNull();
        expect(await sessions.updateOne({ _id: 'old' }, { $inc: { n: 1 } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
        });
        expect(await sessions.updateMany({}, { $inc: { n: 1 } })).toEqual({ matchedCount: 2, modifiedCount: 2 });
        expect(await sessions.deleteOne({ _id: 'old' })).toBe(0);
      });

      test('when the sweep runs after expiry, then the expired documents are deleted for good', async () => {
        const sessions = fresh('sessions');
        await sessions.createIndex({ fields: { seenAt: 1 }, expireAfterSeconds: ttlSeconds });
        const insertedAt = clock.now();
        await sessions.insertOne({ _id: 'old', seenAt: insertedAt });
        const expiredAt = new Date(insertedAt.getTime() + 61_000);
        clock.set(expiredAt);

        // moving the clock back makes a document that is still stored visible again, so a miss means deleted
        const isDeleted = async (): Promise<boolean> => {
          clock.set(insertedAt);
          const found = await sessions.findOne({ _id: 'old' });
          clock.set(expiredAt);
          return found === null;
        };
        const deadline = Date.now() + 5_000;
        while (!(await isDeleted()) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, storeContractSweepIntervalMs));
        }
        clock.set(insertedAt);
        expect(await sessions.findOne({ _id: 'old' })).toBeNull();
      });

      test('when a unique key is held only by an expired document, then it can be inserted again', async () => {
        const claims = fresh('claims');
        await claims.createIndex({ fields: { key: 1 }, unique: true });
        await claims.createIndex({ fields: { claimedAt: 1 }, expireAfterSeconds: ttlSeconds });
        await claims.insertOne({ key: 'reply:1', claimedAt: clock.now(), by: 'first' });
        await claims.insertOne({ _id: 'reply:2', claimedAt: clock.now(), by: 'first' });

        clock.advance(30_000);
        await expect(claims.insertOne({ key: 'reply:1', claimedAt: clock.now() })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(claims.insertOne({ _id: 'reply:2', claimedAt: clock.now() })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );

        clock.advance(31_000);
        await claims.insertOne({ key: 'reply:1', claimedAt: clock.now(), by: 'second' });
        await claims.insertOne({ _id: 'reply:2', claimedAt: clock.now(), by: 'second' });
        expect(await claims.find({}, { sort: { by: 1 } })).toEqual([
          { _id: expect.any(String), key: 'reply:1', claimedAt: clock.now(), by: 'second' },
          { _id: 'reply:2', claimedAt: clock.now(), by: 'second' },
        ]);
      });

      test('when an upsert targets the _id of an expired document, then a fresh document is created', async () => {
        const locks = fresh('locks');
        await locks.createIndex({ fields: { heldAt: 1 }, expireAfterSeconds: ttlSeconds });
        await locks.insertOne({ _id: 'lock', heldAt: clock.now(), owner: 'first', stale: true });
        clock.advance(61_000);
        const result = await locks.updateOne(
          { _id: 'lock' },
          { $set: { owner: 'second' }, $setOnInsert: { heldAt: clock.now() } },
          { upsert: true },
        );
        expect(result).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'lock' });
        expect(await locks.findOne({ _id: 'lock' })).toEqual({ _id: 'lock', owner: 'second', heldAt: clock.now() });
      });
    });

    describe('claim sets', () => {
      const claims = async () => {
        const set = store.claimSet(`claims-${randomUUID()}`, { expireAfterSeconds: 600, dateField: 'claimedAt' });
        await set.open();
        return set;
      };

      test('when an id is claimed twice within its expiry, then only the first claim wins', async () => {
        const set = await claims();
        expect(await set.claim('m1', clock.now())).toBe(true);
        clock.advance(599_000);
        expect(await set.claim('m1', clock.now())).toBe(false);
        expect(await set.claim('m2', clock.now())).toBe(true);
      });

      test('when a claim has expired, then the id is taken again, and held again from then on', async () => {
        const set = await claims();
        expect(await set.claim('m1', clock.now())).toBe(true);
        clock.advance(601_000);
        expect(await set.claim('m1', clock.now())).toBe(true);
        expect(await set.claim('m1', clock.now())).toBe(false);
      });

      test('when a claim is released, then the id is taken again', async () => {
        const set = await claims();
        expect(await set.claim('m1', clock.now())).toBe(true);
        await set.release('m1');
        await set.release('never-claimed');
        expect(await set.claim('m1', clock.now())).toBe(true);
        expect(await set.claim('m1', clock.now())).toBe(false);
      });

      test('when an id is asked about, then has tells a live claim, up to its expiry, without claiming it', async () => {
        const set = await claims();
        expect(await set.has('m1')).toBe(false);
        expect(await set.claim('m1', clock.now())).toBe(true);
        expect(await set.has('m1')).toBe(true);
        expect(await set.has('m2')).toBe(false);
        clock.advance(599_000);
        expect(await set.has('m1')).toBe(true);
        clock.advance(2_000);
        expect(await set.has('m1')).toBe(false);
        expect(await set.claim('m2', clock.now())).toBe(true);
        await set.release('m2');
        expect(await set.has('m2')).toBe(false);
      });

      test('when an id is asked for its claim date, then it is the date it was claimed with, up to its expiry', async () => {
        const set = await claims();
        const at = new Date(clock.now().getTime() - 30_000);
        expect(await set.claimedAt('m1')).toBeNull();
        expect(await set.claim('m1', at)).toBe(true);
        expect(await set.claim('m1', clock.now())).toBe(false);
        expect(await set.claimedAt('m1')).toEqual(at);
        clock.advance(569_000);
        expect(await set.claimedAt('m1')).toEqual(at);
        clock.advance(2_000);
        expect(await set.claimedAt('m1')).toBeNull();
        expect(await set.claim('m2', clock.now())).toBe(true);
        await set.release('m2');
        expect(await set.claimedAt('m2')).toBeNull();
      });

      test('when the same id is claimed concurrently, then exactly one claim wins', async () => {
        const set = await claims();
        const results = await Promise.all([1, 2, 3, 4].map(() => set.claim('m1', clock.now())));
        expect(results.filter(Boolean)).toEqual([true]);
      });
    });

    describe('recent logs', () => {
      type Line = { text: string };
      const keepPerKey = 3;
      const recentLog = async () => {
        const log = store.recentLog<Line>(`lines-${randomUUID()}`, { keepPerKey, keyField: 'userId', atField: 'at' });
        await log.open();
        return log;
      };
      const at = (seconds: number) => new Date(contractStart.getTime() + seconds * 1000);
      const textsOf = (items: Array<{ entry: Line }>) => items.map((item) => item.entry.text);

      test('when entries are appended, then recent returns the newest ones of the key, oldest first, with id and date', async () => {
        const log = await recentLog();
        await log.append('u1', 'm1', at(1), { text: 'one' });
        await log.append('u1', 'm2', at(2), { text: 'two' });
        await log.append('u2', 'm3', at(3), { text: 'other key' });
        expect(await log.recent('u1', 10)).toEqual([
          { id: 'm1', at: at(1), entry: { text: 'one' } },
          { id: 'm2', at: at(2), entry: { text: 'two' } },
        ]);
        expect(await log.recent('u1', 1)).toEqual([{ id: 'm2', at: at(2), entry: { text: 'two' } }]);
        expect(textsOf(await log.recent('u2', 10))).toEqual(['other key']);
        expect(await log.recent('nobody', 10)).toEqual([]);
      });

      test('when more than keepPerKey entries are appended, then only the newest keepPerKey are returned', async () => {
        const log = await recentLog();
        for (let n = 1; n <= 5; n++) await log.append('u1', `m${n}`, at(n), { text: `line ${n}` });
        expect(textsOf(await log.recent('u1', 100))).toEqual(['line 3', 'line 4', 'line 5']);
      });

      test('when an id is appended again, then the second append is a no-op', async () => {
        const log = await recentLog();
        await log.append('u1', 'm1', at(1), { text: 'first' });
        await log.append('u1', 'm1', at(2), { text: 'second' });
        expect(await log.recent('u1', 10)).toEqual([{ id: 'm1', at: at(1), entry: { text: 'first' } }]);
      });

      test('when the same id is appended concurrently, then it is kept once', async () => {
        const log = await recentLog();
        await Promise.all([1, 2, 3].map(() => log.append('u1', 'm1', at(1), { text: 'same' })));
        expect(textsOf(await log.recent('u1', 10))).toEqual(['same']);
      });

      test('when entries come out of order, then they are ordered by date, then id, and one older than a full key is not kept', async () => {
        const log = await recentLog();
        await log.append('u1', 'b', at(5), { text: 'b at 5' });
        await log.append('u1', 'c', at(2), { text: 'c at 2' });
        await log.append('u1', 'a', at(5), { text: 'a at 5' });
        await log.append('u1', 'd', at(1), { text: 'd at 1' });
        expect(textsOf(await log.recent('u1', 10))).toEqual(['c at 2', 'a at 5', 'b at 5']);
      });

      test('when an entry is appended, then append tells whether it was added or its id was kept already', async () => {
        const log = await recentLog();
        expect(await log.append('u1', 'm1', at(1), { text: 'first' })).toBe(true);
        expect(await log.append('u1', 'm1', at(1), { text: 'again' })).toBe(false);
        expect(await log.append('u1', 'm1|2', at(1), { text: 'a second entry of that time' })).toBe(true);
        expect(await log.append('u2', 'm2', at(1), { text: 'another key' })).toBe(true);
        expect(textsOf(await log.recent('u1', 10))).toEqual(['first', 'a second entry of that time']);
        expect(textsOf(await log.recent('u2', 10))).toEqual(['another key']);
      });

      test("when a range is read, then it is the key's kept entries from its start up to its end (excluded), oldest first", async () => {
        const log = await recentLog();
        await log.append('u1', 'c', at(3), { text: 'c at 3' });
        await log.append('u1', 'b', at(2), { text: 'b at 2' });
        await log.append('u1', 'a', at(2), { text: 'a at 2' });
        await log.append('u2', 'x', at(2), { text: 'other key' });
        expect(await log.range('u1', at(2), at(3))).toEqual([
          { id: 'a', at: at(2), entry: { text: 'a at 2' } },
          { id: 'b', at: at(2), entry: { text: 'b at 2' } },
        ]);
        expect(textsOf(await log.range('u1', at(0), at(10)))).toEqual(['a at 2', 'b at 2', 'c at 3']);
        expect(await log.range('u1', at(4), at(10))).toEqual([]);
        expect(await log.range('u1', at(3), at(3))).toEqual([]);
        expect(await log.range('nobody', at(0), at(10))).toEqual([]);
      });

      test('when more than keepPerKey entries are appended, then a range holds only the kept ones', async () => {
        const log = await recentLog();
        for (let n = 1; n <= 5; n++) await log.append('u1', `m${n}`, at(n), { text: `line ${n}` });
        expect(textsOf(await log.range('u1', at(0), at(10)))).toEqual(['line 3', 'line 4', 'line 5']);
      });

      test('when recent is asked right after an append, then it sees the entry', async () => {
        const log = await recentLog();
        const appended = log.append('u1', 'm1', at(1), { text: 'just now' });
        expect(textsOf(await log.recent('u1', 10))).toEqual(['just now']);
        await appended;
      });
    });

    describe('ping', () => {
      test('when the store is open, then ping resolves', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });
  });
}
