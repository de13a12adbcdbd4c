import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import mongoose from 'mongoose';
import { systemClock, type Clock } from '../clock/clock';
import { createSilentLogger, type Logger } from '../log/logger';
import { createExpiry, retryAfterPurgingExpired, startSweeper } from './expiry';
import { mongoDriverOptions } from './mongo-driver';
import {
  DuplicateKeyError,
  type Collection,
  type Document,
  type Filter,
  type IndexSpec,
  type Store,
  type Update,
  type UpdateResult,
} from './store';
import { checkUpdate, getPath, isPlainObject, upsertSeed } from './update';
import { createWriteQueue } from './write-queue';

export interface MongoStoreOptions {
  url: string;
  /** One database per service. */
  dbName: string;
  clock?: Clock;
  /** How often expired documents are deleted; 30 s by default. */
  sweepIntervalMs?: number;
  log?: Logger;
  /** How long to look for a server before failing; 10 s by default. */
  serverSelectionTimeoutMs?: number;
}

type Raw = { _id: string } & Record<string, unknown>;
type RawCollection = mongoose.mongo.Collection<Raw>;
type RawFilter = mongoose.mongo.Filter<Raw>;
type RawUpdate = mongoose.mongo.UpdateFilter<Raw>;

/** The filter and update an update call actually sends, once FerretDB's gaps are worked around. */
interface Planned {
  filter: RawFilter;
  update: Update;
}

/**
 * The MongoDB adapter, through mongoose's connection but on its native collections: the store is
 * schemaless, so mongoose models would add nothing.
 *
 * FerretDB 1.x (SQLite) speaks the same protocol with three gaps, handled here so the contract
 * passes on both: (1) an update reads and writes the document in separate steps, so concurrent
 * updates of one document lose writes; on FerretDB this adapter therefore runs writes one at a
 * time per collection, which makes them atomic within this process only (run one instance per
 * database there); (2) `$pull` with a document compares whole elements instead of matching each
 * element's fields, so such a pull is computed here and written as a `$set` (under (1)'s queue);
 * (3) a unique-index violation in an update comes back as InternalError (code 1) instead of 11000.
 * FerretDB 1.x also lacks TTL indexes; expiry never depended on them (see expiry.ts).
 */
export async function createMongoStore(options: MongoStoreOptions): Promise<Store> {
  const {
    url,
    dbName,
    clock = systemClock,
    sweepIntervalMs = 30_000,
    log = createSilentLogger(),
    serverSelectionTimeoutMs = 10_000,
  } = options;
  const connection = await mongoose
    .createConnection(url, { ...mongoDriverOptions, dbName, serverSelectionTimeoutMS: serverSelectionTimeoutMs })
    .asPromise();
  const maybeDb = connection.db;
  if (!maybeDb) {
    await connection.close();
    throw new Error('the MongoDB connection has no database handle');
  }
  const db = maybeDb;
  let isFerretDb: boolean;
  try {
    isFerretDb = 'ferretdbVersion' in (await db.admin().command({ buildInfo: 1 }));
  } catch (error) {
    await connection.close();
    throw error;
  }
  if (isFerretDb) log.info({ dbName }, 'FerretDB detected: writes run one at a time per collection in this process');

  const expiry = createExpiry(clock);
  const queue = createWriteQueue();
  let isClosed = false;

  function serialised<R>(name: string, task: () => Promise<R>): Promise<R> {
    return isFerretDb ? queue.run(name, task) : task();
  }

  function rawCollection(name: string): RawCollection {
    if (isClosed) throw new Error('the mongo store is closed');
    return db.collection<Raw>(name);
  }

  function liveFilter(name: string, filter: Filter): RawFilter {
    const expired = expiry.expiredConditions(name);
    if (expired.length === 0) return filter;
    // $nor rather than a field-level $not: it stays out of the seed an upsert builds from the filter
    return ('$nor' in filter ? { $and: [filter, { $nor: expired }] } : { ...filter, $nor: expired }) as RawFilter;
  }

  function purgeExpired(name: string): Promise<unknown> {
    return rawCollection(name).deleteMany({ $or: expiry.expiredConditions(name) } as RawFilter);
  }

  /**
   * FerretDB (SQLite) looks a document up by its index only when the filter is exactly
   * `{ _id: <string> }`; any other condition, the expiry one included, makes it read and decode the
   * whole collection. So on FerretDB a by-id access to a collection with TTL rules asks for the id
   * alone and decides expiry here. The id of such a filter, else undefined.
   */
  function expiringIdLookup(name: string, filter: Filter): string | undefined {
    if (!isFerretDb || expiry.expiredConditions(name).length === 0) return undefined;
    const keys = Object.keys(filter);
    return keys.length === 1 && typeof filter._id === 'string' ? filter._id : undefined;
  }

  /** The live document with this id (FerretDB's index path, see expiringIdLookup); an expired one is deleted. */
  async function liveById(name: string, id: string): Promise<Raw | null> {
    const found = await rawCollection(name).findOne({ _id: id });
    if (!found || !expiry.isExpired(name, found)) return found;
    await rawCollection(name).deleteOne({ _id: id });
    return null;
  }

  /**
   * Works around FerretDB's `$pull` of a document by pinning the update to the one document it will
   * change, and its full scans of by-id writes to collections with TTL rules (expiringIdLookup).
   * Both rely on FerretDB's writes running one at a time per collection (serialised).
   */
  async function planForOne(name: string, filter: Filter, update: Update): Promise<Planned> {
    const pulls = documentPulls(update);
    const id = expiringIdLookup(name, filter);
    if (id === undefined && (!isFerretDb || pulls.length === 0)) return { filter: liveFilter(name, filter), update };
    const current =
      id === undefined ? await rawCollection(name).findOne(liveFilter(name, filter)) : await liveById(name, id);
    // no document: only an upsert can follow, and $pull has nothing to remove from a new document
    if (!current)
      return { filter: id === undefined ? liveFilter(name, filter) : { _id: id }, update: withoutPulls(update, pulls) };
    return { filter: { _id: current._id }, update: pullsAsSet(current, update, pulls) };
  }

  function collection<T extends Document>(name: string): Collection<T> {
    const hasExpiry = (): boolean => expiry.expiredConditions(name).length > 0;
    /** A single-document write: serialised on FerretDB, retried once when an expired document held its unique key. */
    const singleWrite = <R>(write: () => Promise<R>): Promise<R> =>
      serialised(name, () =>
        retryAfterPurgingExpired(
          hasExpiry(),
          () => purgeExpired(name),
          () => translateErrors(name, write),
        ),
      );

    return {
      insertOne: (doc) =>
        singleWrite(async () => {
          const toInsert = { ...doc, _id: doc._id ?? randomUUID() } as Raw;
          await rawCollection(name).insertOne(toInsert);
          return toInsert as unknown as T;
        }),

      findOne: async (filter) => {
        const id = expiringIdLookup(name, filter);
        if (id !== undefined) {
          const found = await rawCollection(name).findOne({ _id: id });
          return (found && !expiry.isExpired(name, found) ? found : null) as T | null;
        }
        const found = await rawCollection(name).findOne(liveFilter(name, filter));
        return found as T | null;
      },

      find: async (filter, findOptions) => {
        let cursor = rawCollection(name).find(liveFilter(name, filter));
        if (findOptions?.sort) cursor = cursor.sort(findOptions.sort);
        if (findOptions?.skip) cursor = cursor.skip(findOptions.skip);
        if (findOptions?.limit) cursor = cursor.limit(findOptions.limit);
        const found = await cursor.toArray();
        return found as unknown as T[];
      },

      count: async (filter = {}) => rawCollection(name).countDocuments(liveFilter(name, filter)),

      updateOne: async (filter, update, updateOptions) => {
        checkUpdate(update);
        const isUpsert = updateOptions?.upsert ?? false;
        const done = await singleWrite(async () => {
          const planned = await planForOne(name, filter, update);
          return rawCollection(name).updateOne(planned.filter, toRawUpdate(filter, planned.update, isUpsert), {
            upsert: isUpsert,
          });
        });
        const result: UpdateResult = { matchedCount: done.matchedCount, modifiedCount: done.modifiedCount };
        if (done.upsertedId !== null && done.upsertedId !== undefined) result.upsertedId = String(done.upsertedId);
        return result;
      },

      // not retried after purging expired documents: a failed updateMany may have changed some documents
      updateMany: (filter, update) => {
        checkUpdate(update);
        return serialised(name, () =>
          translateErrors(name, async (): Promise<UpdateResult> => {
            const pulls = documentPulls(update);
            if (!isFerretDb || pulls.length === 0) {
              const done = await rawCollection(name).updateMany(
                liveFilter(name, filter),
                toRawUpdate(filter, update, false),
              );
              return { matchedCount: done.matchedCount, modifiedCount: done.modifiedCount };
            }
            const matched = await rawCollection(name).find(liveFilter(name, filter)).toArray();
            let modifiedCount = 0;
            for (const current of matched) {
              const done = await rawCollection(name).updateOne(
                { _id: current._id },
                toRawUpdate({ _id: current._id }, pullsAsSet(current, update, pulls), false),
              );
              modifiedCount += done.modifiedCount;
            }
            return { matchedCount: matched.length, modifiedCount };
          }),
        );
      },

      findOneAndUpdate: async (filter, update, updateOptions) => {
        checkUpdate(update);
        const isUpsert = updateOptions?.upsert ?? false;
        const found = await singleWrite(async () => {
          const planned = await planForOne(name, filter, update);
          return rawCollection(name).findOneAndUpdate(planned.filter, toRawUpdate(filter, planned.update, isUpsert), {
            upsert: isUpsert,
            returnDocument: updateOptions?.returnDocument ?? 'after',
          });
        });
        return found as T | null;
      },

      // expired documents count as gone here too, so the numbers agree with count()
      deleteOne: (filter) =>
        serialised(name, async () => {
          const id = expiringIdLookup(name, filter);
          if (id !== undefined)
            return (await liveById(name, id)) ? (await rawCollection(name).deleteOne({ _id: id })).deletedCount : 0;
          return (await rawCollection(name).deleteOne(liveFilter(name, filter))).deletedCount;
        }),

      deleteMany: (filter) =>
        serialised(name, async () => (await rawCollection(name).deleteMany(liveFilter(name, filter))).deletedCount),

      createIndex: async (spec: IndexSpec) => {
        expiry.register(name, spec);
        const indexOptions = spec.unique ? { unique: true } : {};
        if (spec.expireAfterSeconds !== undefined) {
          // the native TTL index is a backstop for documents no running store sweeps; reads and the
          // sweep go by the injected clock either way
          try {
            await rawCollection(name).createIndex(spec.fields, {
              ...indexOptions,
              expireAfterSeconds: spec.expireAfterSeconds,
            });
            return;
          } catch (err) {
            log.debug({ err, collection: name }, 'no native TTL index; the store expires documents itself');
          }
        }
        await translateErrors(name, () => rawCollection(name).createIndex(spec.fields, indexOptions));
      },
    };
  }

  async function sweep(): Promise<void> {
    for (const name of expiry.collections()) {
      if (isClosed) return;
      await serialised(name, () => purgeExpired(name));
    }
  }

  const sweeper = startSweeper(sweepIntervalMs, sweep, log);

  return {
    collection,

    ping: async () => {
      if (isClosed) throw new Error('the mongo store is closed');
      await db.admin().command({ ping: 1 });
    },

    close: async () => {
      if (isClosed) return;
      isClosed = true;
      await sweeper.stop();
      await queue.idle();
      await connection.close();
    },
  };
}

/** MongoDB would give an upserted document an ObjectId; the port promises string ids. */
function toRawUpdate(filter: Filter, update: Update, isUpsert: boolean): RawUpdate {
  if (!isUpsert || '_id' in upsertSeed(filter) || update.$setOnInsert?._id !== undefined) return update as RawUpdate;
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: randomUUID() } } as RawUpdate;
}

/** The `$pull` entries whose condition is a document (matched against each element's fields). */
function documentPulls(update: Update): [string, Record<string, unknown>][] {
  const pulls: [string, Record<string, unknown>][] = [];
  for (const [path, condition] of Object.entries(update.$pull ?? {})) {
    if (isPlainObject(condition)) pulls.push([path, condition]);
  }
  return pulls;
}

function withoutPulls(update: Update, pulls: [string, Record<string, unknown>][]): Update {
  const { $pull, ...rest } = update;
  const remaining = Object.fromEntries(
    Object.entries($pull ?? {}).filter(([path]) => !pulls.some(([p]) => p === path)),
  );
  return Object.keys(remaining).length > 0 ? { ...rest, $pull: remaining } : rest;
}

/** Replaces document-valued pulls by a `$set` of the arrays without the matching elements. */
function pullsAsSet(current: Raw, update: Update, pulls: [string, Record<string, unknown>][]): Update {
  const rewritten = withoutPulls(update, pulls);
  const set: Record<string, unknown> = { ...rewritten.$set };
  for (const [path, condition] of pulls) {
    const array = getPath(current, path);
    if (array === undefined) continue;
    if (!Array.isArray(array)) throw new Error(`cannot $pull from ${path}: it is not an array`);
    set[path] = array.filter((element: unknown) => !matchesEquality(element, condition));
  }
  return Object.keys(set).length > 0 ? { ...rewritten, $set: set } : rewritten;
}

function matchesEquality(element: unknown, condition: Record<string, unknown>): boolean {
  if (!isPlainObject(element)) return false;
  return Object.entries(condition).every(([path, expected]) => {
    if (path.startsWith('$')) throw new Error(`$pull supports equality conditions only, not ${path}`);
    return isDeepStrictEqual(getPath(element, path), expected);
  });
}

async function translateErrors<R>(collection: string, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    if (isDuplicateKey(error)) {
      throw new DuplicateKeyError(collection, `duplicate key in ${collection}: ${error.message}`);
    }
    throw error;
  }
}

function isDuplicateKey(error: unknown): error is Error {
  if (!(error instanceof Error) || !('code' in error)) return false;
  // FerretDB 1.x (SQLite) reports a unique violation in an update as InternalError with SQLite's message
  return error.code === 11000 || (error.code === 1 && error.message.includes('UNIQUE constraint failed'));
}
