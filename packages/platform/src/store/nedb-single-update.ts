/**
 * One document updated (or upserted) in NeDB in one step, from NeDB's own parts.
 *
 * Why: NeDB has no findOneAndUpdate. The store's read-modify-write was a `findOneAsync` (a query
 * and a deep copy of the document found) followed by an `updateAsync({ _id })` (a second query,
 * and a deep copy of the result for `returnUpdatedDocs`); an upsert's insert ran a third query and
 * copied the new document twice more. The chat's commands do three of these per command
 * (docs/performance.md, "Hot operations of the embedded store"). Here the first matching document
 * is found once, modified by NeDB's `model.modify` (the copy NeDB keeps), re-indexed by NeDB's
 * `_updateIndexes` (its unique checks and rollback) and handed to NeDB's persistence (the journal),
 * all inside NeDB's executor as its own update runs; no copy is made for the caller, who gets
 * NeDB's own objects and must copy what it hands on.
 *
 * What NeDB's update adds that the store never uses is not replicated, and the store's datastores
 * are checked for it on every call: NeDB's TTL indexes (the store expires documents itself) and
 * `timestampData`. Should an upgrade of NeDB change the parts used here, `nedbSingleUpdates`
 * returns undefined and the store goes NeDB's public way.
 */

import path from 'node:path';
import { modifyInPlace } from './nedb-in-place-update';

type Doc = Record<string, unknown> & { _id: unknown };
type Query = Record<string, unknown>;

interface NedbModel {
  modify(doc: Doc, update: Query): Doc;
  match(doc: Doc, query: Query): boolean;
  deepCopy<T>(value: T, strictKeys?: boolean): T;
  checkObject(value: unknown): void;
}

/** The parts of a NeDB datastore this uses (private to NeDB, hence checked). */
interface NedbDatastoreParts {
  executor: { pushAsync<R>(task: () => Promise<R>): Promise<R> };
  indexes: Record<string, { _fields?: unknown }>;
  persistence: { persistNewStateAsync(docs: Doc[]): Promise<void> };
  ttlIndexes: Record<string, unknown>;
  timestampData: boolean;
  _getRawCandidates(query: Query): Doc[];
  _updateIndexes(oldDoc: Doc, newDoc: Doc): void;
  _insertInCache(doc: Doc): void;
}

export interface SingleUpdates {
  /** False once the datastore has a NeDB TTL index (the store never makes one): NeDB's update must expire by it. */
  applies(): boolean;
  /**
   * The first document matching `query`, and it modified by `modifiers` (NeDB's modifier object),
   * both NeDB's own objects (read-only); null when none matches. When the update changed no index
   * key it was made in place (nedb-in-place-update.ts): `after` is the very document `before` was,
   * `before` a copy taken first only if `keepBefore`, and `isModified` says whether it changed.
   */
  updateFirst(
    query: Query,
    modifiers: Query,
    keepBefore: boolean,
  ): Promise<{ before: Doc; after: Doc; isModified?: boolean } | null>;
  /** Inserts `seed` (with an _id) modified by `modifiers`, as NeDB's upsert does; NeDB's own object. */
  insertModified(seed: Query, modifiers: Query): Promise<Doc>;
}

/* eslint-disable @typescript-eslint/no-require-imports -- untyped internals of NeDB */
const nedbModelFile = path.join(path.dirname(require.resolve('@seald-io/nedb/lib/datastore.js')), 'model.js');
const nedbModel = require(nedbModelFile) as Partial<NedbModel>;
/* eslint-enable @typescript-eslint/no-require-imports */

function hasExpectedModel(model: Partial<NedbModel>): model is NedbModel {
  return (
    typeof model.modify === 'function' &&
    typeof model.match === 'function' &&
    typeof model.deepCopy === 'function' &&
    typeof model.checkObject === 'function'
  );
}

function hasExpectedParts(datastore: object): datastore is NedbDatastoreParts {
  const parts = datastore as Partial<NedbDatastoreParts>;
  return (
    typeof parts.executor?.pushAsync === 'function' &&
    typeof parts.indexes === 'object' &&
    parts.indexes !== null &&
    typeof parts.persistence?.persistNewStateAsync === 'function' &&
    typeof parts.ttlIndexes === 'object' &&
    parts.ttlIndexes !== null &&
    typeof parts.timestampData === 'boolean' &&
    typeof parts._getRawCandidates === 'function' &&
    typeof parts._updateIndexes === 'function' &&
    typeof parts._insertInCache === 'function'
  );
}

/** The fields each index of the datastore reads, as paths' parts (`details.channelOwnerId` → two). */
function indexedPathsOf(datastore: NedbDatastoreParts): string[][] {
  const paths: string[][] = [];
  for (const [name, index] of Object.entries(datastore.indexes)) {
    // a compound index is named by its fields joined with commas, as NeDB names it
    const fields = Array.isArray(index._fields) ? (index._fields as string[]) : name.split(',');
    for (const field of fields) paths.push(field.split('.'));
  }
  return paths;
}

/** What NeDB's update would do besides: expire documents by its TTL indexes, or stamp updatedAt. */
function needsNedbOwnUpdate(datastore: NedbDatastoreParts): boolean {
  return datastore.timestampData || Object.keys(datastore.ttlIndexes).length > 0;
}

/**
 * Single-document updates on `datastore`; undefined when NeDB (or this datastore) is not as this
 * relies on, and the store should use NeDB's public update. `model` is NeDB's unless a test passes another.
 */
export function nedbSingleUpdates(datastore: object, model: Partial<NedbModel> = nedbModel): SingleUpdates | undefined {
  if (!hasExpectedModel(model) || !hasExpectedParts(datastore) || needsNedbOwnUpdate(datastore)) return undefined;
  return {
    applies: () => !needsNedbOwnUpdate(datastore),
    updateFirst: (query, modifiers, keepBefore) =>
      datastore.executor.pushAsync(async () => {
        let before: Doc | undefined;
        for (const candidate of datastore._getRawCandidates(query)) {
          if (model.match(candidate, query)) {
            before = candidate;
            break;
          }
        }
        if (!before) return null;
        const kept = keepBefore ? model.deepCopy(before) : before;
        const inPlace = modifyInPlace(before, modifiers, indexedPathsOf(datastore), model);
        if (inPlace) {
          await datastore.persistence.persistNewStateAsync([before]);
          return { before: kept, after: before, isModified: inPlace.isModified };
        }
        // as NeDB's update: modify (a checked copy), re-index (rolled back on a unique violation), persist
        const after = model.modify(before, modifiers);
        datastore._updateIndexes(before, after);
        await datastore.persistence.persistNewStateAsync([after]);
        return { before: kept, after };
      }),
    insertModified: (seed, modifiers) =>
      datastore.executor.pushAsync(async () => {
        // as NeDB's upsert: the query without its operators, modified (and checked), then copied as
        // NeDB's insert copies it (the modifiers' values are the caller's objects)
        const doc = model.deepCopy(model.modify(model.deepCopy(seed, true) as Doc, modifiers));
        if (doc._id === undefined) throw new Error('an upserted document needs an _id');
        datastore._insertInCache(doc);
        await datastore.persistence.persistNewStateAsync([doc]);
        return doc;
      }),
  };
}
