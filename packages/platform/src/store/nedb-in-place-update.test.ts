import { isDeepStrictEqual } from 'node:util';
import { seededRandom } from '../random/seeded-random';
import { createTempDirs } from '../testing/temp-dirs';
import { createEmbeddedStore } from './embedded-store';
import { modifyInPlace } from './nedb-in-place-update';

type Doc = Record<string, unknown>;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- NeDB's untyped model, the reference
const model = require('@seald-io/nedb/lib/model.js') as {
  modify(doc: Doc, update: Doc): Doc;
  deepCopy<T>(value: T): T;
  checkObject(value: unknown): void;
};

const dirs = createTempDirs('in-place-update');
afterAll(() => dirs.removeAll());

/** The document as text with its keys in order: equal texts, equal documents in the same key order. */
const asText = (doc: unknown) =>
  JSON.stringify(doc, (_key, value: unknown) => (value instanceof Date ? `date:${value.getTime()}` : value));

describe('updates in place', () => {
  test("when random updates are applied in place and by NeDB's copy, then the documents are the same, key order included", () => {
    const random = seededRandom(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    // a fresh copy each time (NeDB keeps a set value itself, and one shared object would grow
    // cycles), made by NeDB: structuredClone's objects have another realm's prototype under jest
    const anyValue = () => model.deepCopy(pick(values));
    const values = [
      0,
      1,
      -2,
      2.5,
      'a',
      'b',
      '',
      null,
      true,
      new Date(5),
      new Date(9),
      [1, 2],
      { x: 1 },
      { y: { z: 2 } },
    ];
    const paths = ['n', 'm', 'hours.07', 'hours.08', 'hours', 'a.b.c', 'a.b', 'list', 'list.0', 'tags', 'idx', 'idx.k'];
    const otherNames = ['$bad', 'constructor', 'hours.', ''];
    const operators = ['$set', '$unset', '$inc', '$max', '$min', '$push'];
    const startingDoc = (): Doc => {
      const doc: Doc = { _id: 'd', n: pick([1, 'one', undefined]), hours: { '07': 1, '09': 2 } };
      if (random() < 0.5) doc.a = model.deepCopy(pick([{ b: { c: 1 } }, { b: 3 }, [{ b: 1 }]]));
      if (random() < 0.5) doc.list = [1, 2, 3];
      if (random() < 0.5) doc.m = anyValue();
      doc.idx = { k: 1 };
      return doc;
    };
    let appliedInPlace = 0;
    for (let step = 0; step < 20_000; step += 1) {
      const doc = startingDoc();
      const modifiers: Record<string, Doc> = {};
      const fieldCount = 1 + Math.floor(random() * 3);
      for (let i = 0; i < fieldCount; i += 1) {
        const operator = pick(operators);
        const path = random() < 0.05 ? pick(otherNames) : pick(paths);
        const value = operator === '$inc' && random() < 0.8 ? pick([1, -1, 0, 0.5]) : anyValue();
        modifiers[operator] = { ...modifiers[operator], [path]: value };
      }
      let expected: unknown;
      try {
        expected = { doc: model.modify(doc, modifiers) };
      } catch (error) {
        expected = { error: (error as Error).message };
      }
      const inPlace = model.deepCopy(doc);
      const result = modifyInPlace(inPlace, modifiers, [['_id'], ['idx', 'k']], model);
      if (result === undefined) {
        // left to NeDB's copy: the document is untouched
        if (asText(inPlace) !== asText(doc)) expect({ step, doc: asText(inPlace) }).toEqual({ step, doc: asText(doc) });
        continue;
      }
      appliedInPlace += 1;
      const wanted = expected as { doc?: Doc };
      const [actual, reference] = [
        { step, modifiers, doc: asText(inPlace), isModified: result.isModified },
        { step, modifiers, doc: asText(wanted.doc), isModified: !isDeepStrictEqual(doc, wanted.doc) },
      ];
      // one expect only when they differ: thousands of steps stay fast
      if (!isDeepStrictEqual(actual, reference)) expect(actual).toEqual(reference);
    }
    // the cases of interest were met often enough to mean something
    expect(appliedInPlace).toBeGreaterThan(2_000);
  });

  test('when an update touches a field an index reads, or a path inside or around it, then it is left to the copy', () => {
    const doc: Doc = { _id: 'd', details: { owner: 'u1', n: 1 }, n: 1 };
    const indexed = [['_id'], ['details', 'owner']];

    expect(modifyInPlace(doc, { $set: { 'details.owner': 'u2' } }, indexed, model)).toBeUndefined();
    expect(modifyInPlace(doc, { $set: { details: { owner: 'u2' } } }, indexed, model)).toBeUndefined();
    expect(modifyInPlace(doc, { $unset: { 'details.owner.x': true } }, indexed, model)).toBeUndefined();
    expect(modifyInPlace(doc, { $set: { _id: 'e' } }, indexed, model)).toBeUndefined();
    expect(modifyInPlace(doc, { $inc: { n: 1, 'details.n': 1 } }, indexed, model)).toEqual({ isModified: true });
    expect(doc).toEqual({ _id: 'd', details: { owner: 'u1', n: 2 }, n: 2 });
  });

  test('when a set value is changed by the caller afterwards, then the document keeps what was set', () => {
    const doc: Doc = { _id: 'd' };
    const value = { a: [1] };
    modifyInPlace(doc, { $set: { value } }, [['_id']], model);
    value.a.push(2);

    expect(doc).toEqual({ _id: 'd', value: { a: [1] } });
  });

  test('when counters are bumped through the store, then reads, counts, the datafile and a returned "before" are right', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir, sweepIntervalMs: 0 });
    const usage = store.collection<{ _id: string; userId: string; hours: Record<string, number>; last?: Date }>(
      'usage',
    );
    await usage.createIndex({ fields: { userId: 1 } });
    await usage.insertOne({ _id: 'u1:hi', userId: 'u1', hours: { '00': 1 } });

    const after = await usage.findOneAndUpdate(
      { _id: 'u1:hi' },
      { $inc: { 'hours.01': 1 }, $max: { last: new Date(10) } },
      { returnDocument: 'after' },
    );
    const before = await usage.findOneAndUpdate(
      { _id: 'u1:hi' },
      { $inc: { 'hours.01': 1 } },
      { returnDocument: 'before' },
    );
    const unchanged = await usage.updateOne({ _id: 'u1:hi' }, { $max: { last: new Date(5) } });
    const changed = await usage.updateOne({ _id: 'u1:hi' }, { $unset: { 'hours.00': true } });
    // what a caller got is its own: changing it changes nothing stored
    (after as { hours: Record<string, number> }).hours['01'] = 99;

    expect(after).toEqual({ _id: 'u1:hi', userId: 'u1', hours: { '00': 1, '01': 99 }, last: new Date(10) });
    expect(before).toEqual({ _id: 'u1:hi', userId: 'u1', hours: { '00': 1, '01': 1 }, last: new Date(10) });
    expect([unchanged.matchedCount, unchanged.modifiedCount]).toEqual([1, 0]);
    expect([changed.matchedCount, changed.modifiedCount]).toEqual([1, 1]);
    const now = { _id: 'u1:hi', userId: 'u1', hours: { '01': 2 }, last: new Date(10) };
    expect(await usage.find({ userId: 'u1' })).toEqual([now]);
    await store.close();

    const reopened = await createEmbeddedStore({ dir, sweepIntervalMs: 0 });
    expect(await reopened.collection('usage').findOne({ _id: 'u1:hi' })).toEqual(now);
    await reopened.close();
  });

  test('when an indexed field is updated, then the copy re-indexes it and finds by the new value see it', async () => {
    const store = await createEmbeddedStore({ dir: await dirs.make(), sweepIntervalMs: 0 });
    const items = store.collection<{ _id: string; userId: string; n: number }>('items');
    await items.createIndex({ fields: { userId: 1 } });
    await items.insertOne({ _id: 'a', userId: 'u1', n: 1 });

    await items.updateOne({ _id: 'a' }, { $set: { userId: 'u2' }, $inc: { n: 1 } });

    expect(await items.find({ userId: 'u1' })).toEqual([]);
    expect(await items.find({ userId: 'u2' })).toEqual([{ _id: 'a', userId: 'u2', n: 2 }]);
    await store.close();
  });
});
