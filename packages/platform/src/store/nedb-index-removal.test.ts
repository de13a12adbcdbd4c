import { createTempDirs } from '../testing/temp-dirs';
import { createEmbeddedStore } from './embedded-store';
import { installInPlaceIndexRemoval } from './nedb-index-removal';

/* eslint-disable @typescript-eslint/no-require-imports -- NeDB's untyped index, as the store uses it */
const NedbIndex = require('@seald-io/nedb/lib/indexes.js') as new (options: { fieldName: string }) => {
  insert(doc: object): void;
  remove(doc: object): void;
  getMatching(value: unknown): object[];
};
/* eslint-enable @typescript-eslint/no-require-imports */

const dirs = createTempDirs('index-removal');
afterAll(() => dirs.removeAll());

describe('removing a document from a NeDB index key shared by others', () => {
  test('when NeDB is as this version ships, then the in-place removal is installed', () => {
    expect(installInPlaceIndexRemoval()).toBe(true);
  });

  test('when one of several documents of a key goes, then the others stay in their order, in the same array, and other keys are untouched', () => {
    installInPlaceIndexRemoval();
    const index = new NedbIndex({ fieldName: 'state' });
    const docs = ['a', 'b', 'c', 'd'].map((name) => ({ _id: name, state: 'posting' }));
    const queued = { _id: 'q', state: 'queued' };
    for (const doc of [...docs, queued]) index.insert(doc);
    // the key inserted first is the tree's root
    const root = (index as unknown as { tree: { tree: { data: object[] } } }).tree.tree;
    const array = root.data;

    index.remove(docs[1] as object);
    index.remove({ _id: 'c', state: 'posting' }); // an equal copy is not the indexed document

    expect(index.getMatching('posting')).toEqual([docs[0], docs[2], docs[3]]);
    // removed in place: the library's own code would have made a new array
    expect(root.data).toBe(array);
    expect(index.getMatching('queued')).toEqual([queued]);
  });

  test('when the last documents of a key go, then the key goes (the library removes the node)', () => {
    installInPlaceIndexRemoval();
    const index = new NedbIndex({ fieldName: 'state' });
    const docs = [{ state: 'a' }, { state: 'a' }, { state: 'b' }];
    for (const doc of docs) index.insert(doc);

    for (const doc of docs.slice(0, 2)) index.remove(doc);

    expect(index.getMatching('a')).toEqual([]);
    expect(index.getMatching('b')).toEqual([docs[2]]);
  });

  test('when many documents share a state and one changes state, then queries by state see it moved', async () => {
    const store = await createEmbeddedStore({ dir: await dirs.make(), sweepIntervalMs: 0 });
    const claims = store.collection<{ _id: string; state: string }>('claims');
    await claims.createIndex({ fields: { state: 1 } });
    for (let i = 0; i < 50; i++) await claims.insertOne({ _id: `k${i}`, state: 'posting' });

    await claims.updateOne({ _id: 'k7' }, { $set: { state: 'done' } });
    await claims.deleteOne({ _id: 'k8' });

    expect(await claims.count({ state: 'posting' })).toBe(48);
    expect(await claims.find({ state: 'done' })).toEqual([{ _id: 'k7', state: 'done' }]);
    await store.close();
  });
});
