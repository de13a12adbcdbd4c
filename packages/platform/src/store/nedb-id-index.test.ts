import { isDeepStrictEqual } from 'node:util';
import Datastore from '@seald-io/nedb';
import { seededRandom } from '../random/seeded-random';
import { createTempDirs } from '../testing/temp-dirs';
import { createEmbeddedStore } from './embedded-store';
import { installMapIdIndex, MapIdIndex } from './nedb-id-index';

type Doc = { _id: string } & Record<string, unknown>;

interface IndexUnderTest {
  insert(doc: Doc | Doc[]): void;
  remove(doc: Doc | Doc[]): void;
  update(oldDoc: Doc | Array<{ oldDoc: Doc; newDoc: Doc }>, newDoc?: Doc): void;
  revertUpdate(oldDoc: Doc | Array<{ oldDoc: Doc; newDoc: Doc }>, newDoc?: Doc): void;
  reset(newData?: Doc | Doc[]): void;
  getMatching(value: unknown): Doc[];
  getBetweenBounds(query: Record<string, unknown>): Doc[];
  getAll(): Doc[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- NeDB's untyped index, the reference
const NedbIndex = require('@seald-io/nedb/lib/indexes.js') as new (options: {
  fieldName: string;
  unique?: boolean;
}) => IndexUnderTest;

const dirs = createTempDirs('id-index');
afterAll(() => dirs.removeAll());

/** What an operation did: its result, or the error it threw (message and NeDB's fields). */
function outcome(run: () => unknown): unknown {
  try {
    return { result: run() };
  } catch (error) {
    const { message, key, errorType } = error as Error & { key?: unknown; errorType?: unknown };
    return { error: { message, key, errorType } };
  }
}

describe("NeDB's _id index as a Map", () => {
  test('when a datastore is new, then its _id index is replaced, and a datastore of another shape is left as it is', () => {
    const datastore = new Datastore({ inMemoryOnly: true });

    expect(installMapIdIndex(datastore)).toBe(true);
    expect((datastore as unknown as { indexes: Record<string, unknown> }).indexes._id).toBeInstanceOf(MapIdIndex);
    expect(installMapIdIndex(datastore)).toBe(true);
    expect(installMapIdIndex({ indexes: {} })).toBe(false);
    expect(installMapIdIndex({})).toBe(false);
  });

  test('when the datastore already holds documents, then its index is not replaced', async () => {
    const datastore = new Datastore<Doc>({ inMemoryOnly: true });
    await datastore.insertAsync({ _id: 'a' });

    expect(installMapIdIndex(datastore)).toBe(false);
    expect(await datastore.findOneAsync({ _id: 'a' })).toEqual({ _id: 'a' });
  });

  test("when random inserts, removals, updates and reverts are applied to it and to NeDB's tree, then every answer is the same", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = seededRandom(seed);
      const mine: IndexUnderTest = new MapIdIndex() as unknown as IndexUnderTest;
      const nedb = new NedbIndex({ fieldName: '_id', unique: true });
      const ids = Array.from({ length: 40 }, (_, i) => `id-${String(i).padStart(2, '0')}${i % 3 === 0 ? 'x' : ''}`);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      const newDoc = (): Doc => ({ _id: pick(ids), n: random() });
      /** Documents either index may hold (a removal or update names one by identity). */
      const known: Doc[] = [];
      const some = (): Doc => (known.length > 0 && random() < 0.7 ? pick(known) : newDoc());

      for (let step = 0; step < 3000; step += 1) {
        const choice = random();
        let apply: (index: IndexUnderTest) => unknown;
        if (choice < 0.3) {
          const doc = newDoc();
          known.push(doc);
          apply = (index) => index.insert(doc);
        } else if (choice < 0.38) {
          const docs = Array.from({ length: 1 + Math.floor(random() * 4) }, newDoc);
          known.push(...docs);
          apply = (index) => index.insert(docs);
        } else if (choice < 0.5) {
          const doc = some();
          apply = (index) => index.remove(doc);
        } else if (choice < 0.65) {
          const [oldDoc, replacement] = [some(), random() < 0.6 ? undefined : newDoc()];
          const doc = replacement ?? { ...oldDoc, n: random() };
          known.push(doc);
          apply = (index) => index.update(oldDoc, doc);
        } else if (choice < 0.7) {
          const pairs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
            const oldDoc = some();
            const doc = random() < 0.5 ? { ...oldDoc, n: random() } : newDoc();
            known.push(doc);
            return { oldDoc, newDoc: doc };
          });
          apply = (index) => index.update(pairs);
        } else if (choice < 0.75) {
          const [oldDoc, doc] = [some(), some()];
          apply = (index) => index.revertUpdate(oldDoc, doc);
        } else if (choice < 0.82) {
          const id = random() < 0.9 ? pick(ids) : 7;
          apply = (index) => index.getMatching(id);
        } else if (choice < 0.87) {
          const wanted = [pick(ids), pick(ids), pick(ids)];
          apply = (index) => new Set(index.getMatching(wanted));
        } else if (choice < 0.95) {
          const bounds: Record<string, unknown> = {};
          if (random() < 0.6) bounds[random() < 0.5 ? '$gt' : '$gte'] = pick([...ids, 'id-', 'id-1', 'id-99', 5]);
          if (random() < 0.6) bounds[random() < 0.5 ? '$lt' : '$lte'] = pick([...ids, 'id-2', 'z', 5]);
          apply = (index) => index.getBetweenBounds(bounds);
        } else if (choice < 0.99) {
          // the same documents; the order is the tree's by id, and the Map's as inserted
          apply = (index) => new Set(index.getAll());
        } else {
          const docs = random() < 0.5 ? [newDoc(), newDoc()] : Array.from({ length: 10 }, newDoc);
          known.push(...docs);
          apply = (index) => index.reset(docs);
        }
        const expected = outcome(() => apply(nedb));
        const actual = outcome(() => apply(mine));
        // one expect per step only when they differ: a few thousand steps stay fast
        if (!isDeepStrictEqual(actual, expected))
          expect({ seed, step, outcome: actual }).toEqual({ seed, step, outcome: expected });
        // identity, not only equality: NeDB hands these very objects to the queries
        const [ours, theirs] = [mine.getAll(), new Set(nedb.getAll())];
        const isSame = ours.length === theirs.size && ours.every((doc) => theirs.has(doc));
        if (!isSame) expect({ seed, step, all: ours }).toEqual({ seed, step, all: [...theirs] });
      }
    }
  });

  test('when no index serves a query, then the documents come in the order they were inserted, an updated one in its place', async () => {
    const store = await createEmbeddedStore({ dir: await dirs.make(), sweepIntervalMs: 0 });
    const items = store.collection<{ _id: string; n: number }>('items');
    for (const id of ['m', 'b', 'z', 'a']) await items.insertOne({ _id: id, n: 1 });
    await items.updateOne({ _id: 'b' }, { $set: { n: 2 } });
    await items.deleteOne({ _id: 'z' });
    await items.insertOne({ _id: 'c', n: 1 });

    expect((await items.find({ n: { $gte: 1 } })).map((doc) => doc._id)).toEqual(['m', 'b', 'a', 'c']);
    // a range of _ids comes in their order, as from the tree
    expect((await items.find({ _id: { $gt: 'a', $lte: 'm' } })).map((doc) => doc._id)).toEqual(['b', 'c', 'm']);
    await store.close();
  });

  test('when a document has an _id that is not a string, then it is refused with a message saying why', () => {
    const index = new MapIdIndex();

    expect(() => index.insert({ _id: 5 })).toThrow('the embedded store keeps string _ids only, not number');
    expect(() => index.reset([{ _id: 'a' }, { _id: new Date(0) }])).toThrow(
      'the embedded store keeps string _ids only, not object',
    );
    expect(index.getAll()).toEqual([]);
  });

  test('when a collection is written, closed and opened again, then its documents are found by _id and in order', async () => {
    const dir = await dirs.make();
    const first = await createEmbeddedStore({ dir, sweepIntervalMs: 0 });
    const items = first.collection<{ _id: string; n: number }>('items');
    for (const id of ['c', 'a', 'b']) await items.insertOne({ _id: id, n: 1 });
    await items.updateOne({ _id: 'b' }, { $inc: { n: 1 } });
    await items.deleteOne({ _id: 'c' });
    await first.close();

    const second = await createEmbeddedStore({ dir, sweepIntervalMs: 0 });
    const reopened = second.collection<{ _id: string; n: number }>('items');

    expect(await reopened.find({})).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 2 },
    ]);
    expect(await reopened.findOne({ _id: 'b' })).toEqual({ _id: 'b', n: 2 });
    expect(await reopened.find({ _id: { $gt: 'a' } })).toEqual([{ _id: 'b', n: 2 }]);
    await expect(reopened.insertOne({ _id: 'a', n: 9 })).rejects.toThrow('duplicate key in items');
    await second.close();
  });
});
