import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createTempDirs } from '../testing/temp-dirs';
import { createEmbeddedStore } from './embedded-store';
import { installInPlaceReindex } from './nedb-index-update';
import { DuplicateKeyError, type Store } from './store';

/* eslint-disable @typescript-eslint/no-require-imports -- NeDB's untyped index, as the store uses it */
const NedbIndex = require('@seald-io/nedb/lib/indexes.js') as new (options: {
  fieldName: string;
  unique?: boolean;
}) => {
  insert(doc: object): void;
  update(oldDoc: object, newDoc: object): void;
  getMatching(value: unknown): object[];
  getAll(): object[];
};
/* eslint-enable @typescript-eslint/no-require-imports */

const dirs = createTempDirs('index-update');
afterAll(() => dirs.removeAll());

async function openStore(): Promise<{ store: Store; dir: string }> {
  const dir = await dirs.make();
  return { store: await createEmbeddedStore({ dir, sweepIntervalMs: 0 }), dir };
}

interface Member {
  _id: string;
  state: string;
  email: string;
  team: string;
  seat: number;
  tags?: string[];
  score: number;
}

describe('re-indexing an updated document in place', () => {
  test('when NeDB is as this version ships, then the in-place re-index is installed', () => {
    expect(installInPlaceReindex()).toBe(true);
  });

  test('when the index class or the model is shaped differently, then nothing is installed', () => {
    class OtherIndex {
      tree = { root: null };
      update(): string {
        return 'own';
      }
    }
    const ownUpdate = OtherIndex.prototype.update;

    expect(installInPlaceReindex(OtherIndex, { getDotValues: () => undefined })).toBe(false);
    expect(installInPlaceReindex(NedbIndex, {})).toBe(false);
    expect(installInPlaceReindex(null, { getDotValues: () => undefined })).toBe(false);
    expect(OtherIndex.prototype.update).toBe(ownUpdate);
  });

  test('when a key does not change, then the new document takes the old one place in the same node', () => {
    installInPlaceReindex();
    const index = new NedbIndex({ fieldName: 'state' });
    const docs = ['a', 'b', 'c'].map((name) => ({ _id: name, state: 'posting', n: 0 }));
    for (const doc of docs) index.insert(doc);
    const before = index.getMatching('posting');

    const updated = { ...docs[0], n: 1 } as { _id: string; state: string; n: number };
    index.update(docs[0] as object, updated);

    expect(index.getMatching('posting')).toEqual([updated, docs[1], docs[2]]);
    expect(index.getMatching('posting')[0]).toBe(updated);
    expect(index.getMatching('posting')).toBe(before);
  });

  test('when a key changes, or is an array, then NeDB re-indexes the document itself', () => {
    installInPlaceReindex();
    const byState = new NedbIndex({ fieldName: 'state' });
    const byTag = new NedbIndex({ fieldName: 'tags' });
    const doc = { _id: 'a', state: 'posting', tags: ['x', 'y'] };
    byState.insert(doc);
    byTag.insert(doc);

    const moved = { _id: 'a', state: 'done', tags: ['x', 'y'] };
    byState.update(doc, moved);
    byTag.update(doc, moved);

    expect(byState.getMatching('posting')).toEqual([]);
    expect(byState.getMatching('done')).toEqual([moved]);
    expect(byTag.getMatching('x')).toEqual([moved]);
    expect(byTag.getMatching('y')).toEqual([moved]);
  });

  test('when updates do and do not change indexed fields, then finds, sorts and unique keys stay right', async () => {
    const { store } = await openStore();
    const members = store.collection<Member>('members');
    await members.createIndex({ fields: { state: 1 } });
    await members.createIndex({ fields: { email: 1 }, unique: true });
    await members.createIndex({ fields: { team: 1, seat: 1 }, unique: true });
    await members.createIndex({ fields: { tags: 1 } });
    for (let i = 0; i < 20; i += 1) {
      await members.insertOne({
        _id: `m${i}`,
        state: i % 2 === 0 ? 'active' : 'idle',
        email: `m${i}@x`,
        team: `t${i % 4}`,
        seat: i,
        tags: [`tag${i % 3}`],
        score: i,
      });
    }

    // no indexed field changes
    for (let i = 0; i < 20; i += 1) await members.updateOne({ _id: `m${i}` }, { $inc: { score: 100 } });
    // indexed fields change: a state, an email, a compound key, an array
    await members.updateOne({ _id: 'm1' }, { $set: { state: 'active' } });
    await members.updateOne({ _id: 'm2' }, { $set: { email: 'two@x' } });
    await members.updateOne({ _id: 'm3' }, { $set: { seat: 99 } });
    await members.updateOne({ _id: 'm4' }, { $set: { tags: ['tag1', 'tag9'] } });
    await members.findOneAndUpdate({ _id: 'm5' }, { $inc: { score: 1 } });

    expect(await members.count({ state: 'active' })).toBe(11);
    expect((await members.find({ state: 'idle' }, { sort: { _id: 1 } })).map((m) => m._id)).toEqual([
      'm11',
      'm13',
      'm15',
      'm17',
      'm19',
      'm3',
      'm5',
      'm7',
      'm9',
    ]);
    expect(await members.findOne({ email: 'two@x' })).toMatchObject({ _id: 'm2', score: 102 });
    expect(await members.findOne({ email: 'm2@x' })).toBeNull();
    expect(await members.findOne({ team: 't3', seat: 99 })).toMatchObject({ _id: 'm3' });
    expect(await members.findOne({ team: 't3', seat: 3 })).toBeNull();
    expect((await members.find({ tags: 'tag9' })).map((m) => m._id)).toEqual(['m4']);
    expect((await members.find({ tags: 'tag1' }, { sort: { _id: 1 } })).map((m) => m._id)).toEqual([
      'm1',
      'm10',
      'm13',
      'm16',
      'm19',
      'm4',
      'm7',
    ]);
    expect((await members.find({}, { sort: { score: -1 }, limit: 3 })).map((m) => m.score)).toEqual([119, 118, 117]);
    expect(await members.findOne({ _id: 'm5' })).toMatchObject({ score: 106 });
    // the unique keys still hold, for documents updated in place too
    await expect(members.updateOne({ _id: 'm6' }, { $set: { email: 'm8@x' } })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    await expect(members.updateOne({ _id: 'm6' }, { $set: { team: 't0', seat: 8 } })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    await expect(
      members.insertOne({ _id: 'm7', state: 'x', email: 'new@x', team: 'new', seat: 0, score: 0 }),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    await store.close();
  });

  test('when an update violates a unique key, then every index and the datafile keep the document as it was', async () => {
    const { store, dir } = await openStore();
    const members = store.collection<Member>('members');
    await members.createIndex({ fields: { state: 1 } });
    await members.createIndex({ fields: { email: 1 }, unique: true });
    await members.insertOne({ _id: 'a', state: 'active', email: 'a@x', team: 't', seat: 1, score: 1 });
    await members.insertOne({ _id: 'b', state: 'active', email: 'b@x', team: 't', seat: 2, score: 2 });

    // _id and state indexes are updated (in place) before the email index fails: they are rolled back
    const failed = members.findOneAndUpdate({ _id: 'a' }, { $set: { email: 'b@x', score: 50 } });

    await expect(failed).rejects.toThrow(DuplicateKeyError);
    await expect(failed).rejects.toThrow(/duplicate key in members: .*unique constraint/);
    const a = { _id: 'a', state: 'active', email: 'a@x', team: 't', seat: 1, score: 1 };
    expect(await members.findOne({ _id: 'a' })).toEqual(a);
    expect(await members.find({ state: 'active' }, { sort: { _id: 1 } })).toEqual([
      a,
      { _id: 'b', state: 'active', email: 'b@x', team: 't', seat: 2, score: 2 },
    ]);
    expect(await members.findOne({ email: 'a@x' })).toEqual(a);
    await members.updateOne({ _id: 'b' }, { $set: { score: 3 } });
    const lines = (await readFile(path.join(dir, 'members.db'), 'utf8')).split('\n').filter(Boolean);
    expect(lines.filter((line) => line.includes('"score":50'))).toEqual([]);
    expect(lines.at(-1)).toBe('{"_id":"b","state":"active","email":"b@x","team":"t","seat":2,"score":3}');
    await store.close();
  });
});
