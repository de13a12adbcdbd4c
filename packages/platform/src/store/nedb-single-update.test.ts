import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import { createTempDirs } from '../testing/temp-dirs';
import { createEmbeddedStore } from './embedded-store';
import { nedbSingleUpdates } from './nedb-single-update';
import { DuplicateKeyError } from './store';

const dirs = createTempDirs('single-update');
afterAll(() => dirs.removeAll());

const linesOf = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

interface Count {
  _id: string;
  userId: string;
  count: number;
  at?: Date;
  hours?: Record<string, number>;
}

describe('single-document updates from NeDB parts', () => {
  test('when NeDB is as this version ships, then a datastore gets them', () => {
    expect(nedbSingleUpdates(new Datastore())).toBeDefined();
  });

  test('when the datastore or the model is shaped differently, or uses NeDB timestamps or TTL, then there are none', () => {
    const datastore = new Datastore();
    const withoutParts = { executor: { pushAsync: () => Promise.resolve() }, persistence: {} };
    const withTtl = new Datastore();
    void withTtl.ensureIndexAsync({ fieldName: 'at', expireAfterSeconds: 60 });

    expect(nedbSingleUpdates(withoutParts)).toBeUndefined();
    expect(nedbSingleUpdates(datastore, { modify: () => ({ _id: 'x' }) })).toBeUndefined();
    expect(nedbSingleUpdates(new Datastore({ timestampData: true }))).toBeUndefined();
    expect(nedbSingleUpdates(withTtl)).toBeUndefined();
  });

  test('when a datastore gets a NeDB TTL index after, then they no longer apply', async () => {
    const datastore = new Datastore();
    const updates = nedbSingleUpdates(datastore);
    expect(updates?.applies()).toBe(true);

    await datastore.ensureIndexAsync({ fieldName: 'at', expireAfterSeconds: 60 });

    expect(updates?.applies()).toBe(false);
  });

  test('when a store updates and upserts, then its datafile gets the lines NeDB own update would write', async () => {
    const storeDir = await dirs.make();
    const store = await createEmbeddedStore({ dir: storeDir, sweepIntervalMs: 0 });
    const counts = store.collection<Count>('counts');
    await counts.createIndex({ fields: { userId: 1 } });
    const nedbFile = path.join(await dirs.make(), 'counts.db');
    const nedb = new Datastore<Count>({ filename: nedbFile, autoload: true });
    await nedb.ensureIndexAsync({ fieldName: 'userId' });
    const at = new Date(Date.UTC(2026, 10, 26, 12));
    const seed = { _id: 'u1:help', userId: 'u1', count: 1, at, hours: { h12: 1 } };
    const update = { $inc: { count: 1, 'hours.h12': 1 }, $max: { at: new Date(at.getTime() + 1000) } };

    await counts.insertOne(seed);
    await counts.findOneAndUpdate({ _id: 'u1:help', count: { $gte: 1 } }, update, { upsert: true });
    await counts.findOneAndUpdate(
      { _id: 'u2:help' },
      { $inc: { count: 1 }, $setOnInsert: { userId: 'u2' } },
      { upsert: true },
    );
    await counts.updateOne({ _id: 'u1:help', userId: 'nobody' }, { $set: { count: 0 } });
    await nedb.insertAsync(seed);
    await nedb.updateAsync({ _id: 'u1:help' }, update, {});
    await nedb.updateAsync({ _id: 'u2:help', userId: 'u2', $not: {} }, { $inc: { count: 1 } }, { upsert: true });

    const storeLines = await linesOf(path.join(storeDir, 'counts.db'));
    expect(storeLines).toEqual([
      '{"$$indexCreated":{"fieldName":"userId","unique":false}}',
      '{"_id":"u1:help","userId":"u1","count":1,"at":{"$$date":1795694400000},"hours":{"h12":1}}',
      '{"_id":"u1:help","userId":"u1","count":2,"at":{"$$date":1795694401000},"hours":{"h12":2}}',
      '{"_id":"u2:help","userId":"u2","count":1}',
    ]);
    // the documents' lines as NeDB wrote them (its index lines hold the options as each caller gave them)
    const documentLines = (lines: string[]) => lines.filter((line) => !line.includes('$$indexCreated'));
    expect(documentLines(storeLines)).toEqual(documentLines(await linesOf(nedbFile)));
    await store.close();
  });

  test('when documents are returned, then they are copies the caller may change', async () => {
    const store = await createEmbeddedStore({ dir: await dirs.make(), sweepIntervalMs: 0 });
    const counts = store.collection<Count>('counts');
    await counts.insertOne({ _id: 'a', userId: 'u', count: 1, hours: { h1: 1 } });

    const after = await counts.findOneAndUpdate({ _id: 'a' }, { $inc: { count: 1 } });
    const before = await counts.findOneAndUpdate({ _id: 'a' }, { $inc: { count: 1 } }, { returnDocument: 'before' });
    const upserted = await counts.findOneAndUpdate(
      { _id: 'b' },
      { $set: { hours: { h2: 2 } }, $setOnInsert: { userId: 'v', count: 0 } },
      { upsert: true },
    );
    for (const doc of [after, before, upserted]) {
      if (!doc) throw new Error('a document was expected');
      doc.count = -1;
      if (doc.hours) doc.hours.h1 = -1;
    }

    expect([after, before, upserted].map((doc) => doc?._id)).toEqual(['a', 'a', 'b']);
    expect(await counts.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', userId: 'u', count: 3, hours: { h1: 1 } },
      { _id: 'b', userId: 'v', count: 0, hours: { h2: 2 } },
    ]);
    await store.close();
  });

  test('when an upsert inserts a taken unique key, then it fails as a duplicate and nothing is inserted', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir, sweepIntervalMs: 0 });
    const counts = store.collection<Count>('counts');
    await counts.createIndex({ fields: { userId: 1 }, unique: true });
    await counts.insertOne({ _id: 'a', userId: 'u', count: 1 });

    const upsert = counts.findOneAndUpdate(
      { _id: 'b' },
      { $inc: { count: 1 }, $setOnInsert: { userId: 'u' } },
      { upsert: true },
    );

    await expect(upsert).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(await counts.find({})).toEqual([{ _id: 'a', userId: 'u', count: 1 }]);
    expect(await counts.findOne({ _id: 'b' })).toBeNull();
    await counts.updateOne({ _id: 'a' }, { $inc: { count: 1 } });
    expect(await linesOf(path.join(dir, 'counts.db'))).toEqual([
      '{"$$indexCreated":{"fieldName":"userId","unique":true}}',
      '{"_id":"a","userId":"u","count":1}',
      '{"_id":"a","userId":"u","count":2}',
    ]);
    await store.close();
  });

  test('when a modifier cannot apply, then NeDB error comes and the document is unchanged', async () => {
    const store = await createEmbeddedStore({ dir: await dirs.make(), sweepIntervalMs: 0 });
    const counts = store.collection<Count>('counts');
    await counts.insertOne({ _id: 'a', userId: 'u', count: 1 });

    await expect(counts.updateOne({ _id: 'a' }, { $inc: { userId: 1 } })).rejects.toThrow(
      "Don't use the $inc modifier on non-number fields",
    );
    expect(await counts.findOne({ _id: 'a' })).toEqual({ _id: 'a', userId: 'u', count: 1 });
    await store.close();
  });
});
