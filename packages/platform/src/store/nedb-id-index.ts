/**
 * NeDB's `_id` index as a Map, in place of its AVL tree.
 *
 * Why: NeDB keeps every index as an AVL tree (@seald-io/binary-search-tree) with a node object and
 * a one-document array (and its elements store) per key: in the `_id` index, three heap objects
 * and ~16 references for every document of every collection. The owner thread's full garbage
 * collections mark all of them: ~41,000 documents at rest for 1,000 channels (the commands, their
 * counts and usage, seven services' `user-access` copies) made ~123,000 objects and ~570,000
 * references of the `_id` trees alone, a tenth of the owner's heap (docs/performance.md, "NeDB's
 * `_id` index as a Map"). A Map holds each document in its one backing table, and a look-up is a
 * Map access instead of a descent comparing keys.
 *
 * One difference in what is observable: a query that no index serves (NeDB walks all documents)
 * returns them in the order they were inserted, where the tree gave the order of their `_id`s: as
 * MongoDB's natural order, and as a query served by another index already did. No order was
 * promised without a sort. The ids are not kept sorted for it: an insertion into a sorted array of
 * 10,000 ids cost more than the tree's insertion (`npm run bench:embedded-ops`, insertOne 47–49 µs
 * against 20–22).
 *
 * The store's `_id`s are strings (the port's `Document`), and only strings are indexed here: a
 * document with another `_id` is refused with an error rather than indexed under a key the Map
 * would compare differently from NeDB (a Date by identity, NaN equal to itself). Everything NeDB
 * asks of an index is here with NeDB's results: unique violations as its tree reports them (the
 * same `errorType` and `key`), all-or-nothing inserts of several documents, updates rolled back by
 * `revertUpdate`, `getMatching` of one id or several, `getBetweenBounds` in the tree's order
 * (NeDB's `compareThings`, which orders strings as `<` does).
 *
 * It is put in place of the tree that `new Datastore()` makes (`installMapIdIndex`), before the
 * datafile is loaded into it. Should NeDB's shape differ from what this relies on, nothing is
 * replaced and NeDB works as it ships.
 */

type Doc = Record<string, unknown> & { _id?: unknown };

/** The bounds NeDB hands an index for a range query on its field. */
interface Bounds {
  $lt?: unknown;
  $lte?: unknown;
  $gt?: unknown;
  $gte?: unknown;
}

type Compare = (a: unknown, b: unknown) => number;

interface NedbModel {
  compareThings: Compare;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped internals of NeDB
const nedbModel = require('@seald-io/nedb/lib/model.js') as Partial<NedbModel>;

/** NeDB's comparison as it is when called (nedb-compare-keys.ts may have replaced the export). */
const compareThings: Compare = (a, b) => (nedbModel.compareThings as Compare)(a, b);

/** The error NeDB's tree throws for a key that a unique index already holds. */
function uniqueViolation(key: string): Error & { key: string; errorType: string } {
  return Object.assign(new Error(`Can't insert key ${JSON.stringify(key)}, it violates the unique constraint`), {
    key,
    errorType: 'uniqueViolated',
  });
}

function idOf(doc: Doc): string {
  const id = doc._id;
  if (typeof id !== 'string') throw new TypeError(`the embedded store keeps string _ids only, not ${typeof id}`);
  return id;
}

/** What NeDB calls on an index, for the `_id` index. */
export class MapIdIndex {
  readonly fieldName = '_id';
  readonly _fields = ['_id'];
  readonly unique = true;
  readonly sparse = false;
  /** By id, in the order inserted. */
  private docs = new Map<string, Doc>();

  reset(newData?: Doc | Doc[]): void {
    this.docs = new Map();
    if (newData !== undefined) this.insert(newData);
  }

  insert(doc: Doc | Doc[]): void {
    if (Array.isArray(doc)) {
      this.insertAll(doc);
      return;
    }
    const id = idOf(doc);
    if (this.docs.has(id)) throw uniqueViolation(id);
    this.docs.set(id, doc);
  }

  /** Each of `docs`, or (on a unique violation) none of them, as NeDB's index does. */
  private insertAll(docs: Doc[]): void {
    let inserted = 0;
    try {
      for (const doc of docs) {
        this.insert(doc);
        inserted += 1;
      }
    } catch (error) {
      for (const doc of docs.slice(0, inserted)) this.remove(doc);
      throw error;
    }
  }

  /**
   * Removes the document's id. As NeDB's tree does for a key of one document, whatever document
   * that id holds goes, not only this very object.
   */
  remove(doc: Doc | Doc[]): void {
    if (Array.isArray(doc)) {
      for (const each of doc) this.remove(each);
      return;
    }
    if (typeof doc._id === 'string') this.docs.delete(doc._id);
  }

  update(oldDoc: Doc | Array<{ oldDoc: Doc; newDoc: Doc }>, newDoc?: Doc): void {
    if (Array.isArray(oldDoc)) {
      this.updateAll(oldDoc);
      return;
    }
    if (newDoc === undefined) return;
    // the usual case, one document modified under its own id: it takes the old one's place (what
    // the removal and insertion below would come to)
    if (newDoc._id === oldDoc._id && typeof oldDoc._id === 'string' && this.docs.has(oldDoc._id)) {
      this.docs.set(oldDoc._id, newDoc);
      return;
    }
    this.remove(oldDoc);
    try {
      this.insert(newDoc);
    } catch (error) {
      this.insert(oldDoc);
      throw error;
    }
  }

  /** Several documents replaced at once, or (on a unique violation) none of them, as NeDB's index does. */
  private updateAll(pairs: Array<{ oldDoc: Doc; newDoc: Doc }>): void {
    for (const { oldDoc } of pairs) this.remove(oldDoc);
    let inserted = 0;
    try {
      for (const { newDoc } of pairs) {
        this.insert(newDoc);
        inserted += 1;
      }
    } catch (error) {
      for (const { newDoc } of pairs.slice(0, inserted)) this.remove(newDoc);
      for (const { oldDoc } of pairs) this.insert(oldDoc);
      throw error;
    }
  }

  revertUpdate(oldDoc: Doc | Array<{ oldDoc: Doc; newDoc: Doc }>, newDoc?: Doc): void {
    if (Array.isArray(oldDoc)) {
      this.update(oldDoc.map((pair) => ({ oldDoc: pair.newDoc, newDoc: pair.oldDoc })));
      return;
    }
    if (newDoc !== undefined) this.update(newDoc, oldDoc);
  }

  /** The documents of one id, or of each of several (each document once). */
  getMatching(value: unknown): Doc[] {
    if (!Array.isArray(value)) {
      const doc = typeof value === 'string' ? this.docs.get(value) : undefined;
      return doc === undefined ? [] : [doc];
    }
    const found = new Set<Doc>();
    for (const id of value) {
      const doc = typeof id === 'string' ? this.docs.get(id) : undefined;
      if (doc !== undefined) found.add(doc);
    }
    return [...found];
  }

  /** The documents whose id is within the bounds, in the tree's order (a walk of all: a rare query). */
  getBetweenBounds(query: Bounds): Doc[] {
    const isWithin = (id: string): boolean =>
      (!('$gt' in query) || compareThings(id, query.$gt) > 0) &&
      (!('$gte' in query) || compareThings(id, query.$gte) >= 0) &&
      (!('$lt' in query) || compareThings(id, query.$lt) < 0) &&
      (!('$lte' in query) || compareThings(id, query.$lte) <= 0);
    const ids = [...this.docs.keys()].filter(isWithin).sort((a, b) => compareThings(a, b));
    return ids.map((id) => this.docs.get(id) as Doc);
  }

  getAll(): Doc[] {
    return Array.from(this.docs.values());
  }
}

/** What this needs of a NeDB datastore. */
interface DatastoreWithIndexes {
  indexes: Record<string, unknown>;
}

function hasIdIndex(datastore: object): datastore is DatastoreWithIndexes {
  const { indexes } = datastore as Partial<DatastoreWithIndexes>;
  if (typeof indexes !== 'object' || indexes === null) return false;
  const index = indexes._id as { fieldName?: unknown; unique?: unknown; getAll?: unknown } | undefined;
  return index?.fieldName === '_id' && index.unique === true && typeof index.getAll === 'function';
}

/**
 * Puts a MapIdIndex in place of the `_id` index of a datastore that holds no document yet (right
 * after `new Datastore()`, before its datafile is loaded); false, and nothing replaced, when the
 * datastore or NeDB's model differ from what this relies on, or it holds documents already.
 */
export function installMapIdIndex(datastore: object): boolean {
  if (typeof nedbModel.compareThings !== 'function' || !hasIdIndex(datastore)) return false;
  const current = datastore.indexes._id as { getAll(): unknown[] };
  if (current instanceof MapIdIndex) return true;
  if (current.getAll().length > 0) return false;
  datastore.indexes._id = new MapIdIndex();
  return true;
}
