import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { createBatcher, type Batcher } from '../batch/batcher';
import { systemClock, type Clock } from '../clock/clock';
import { createSilentLogger, type Logger } from '../log/logger';
import { collectionClaimSet } from './claim-set';
import { collectionRecentLog } from './collection-recent-log';
import { createExpiry, retryAfterPurgingExpired, startSweeper, type Expiry } from './expiry';
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
import { checkUpdate, upsertSeed } from './update';

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

/**
 * The MongoDB adapter, through mongoose's connection but on its native collections: the store is
 * schemaless, so mongoose models would add nothing. Every call is one engine command, so the
 * engine's own atomicity of single-document writes is what the contract's concurrency tests check.
 * Expiry is decided by the injected clock (see expiry.ts): reads and writes leave expired documents
 * out, and a sweep deletes them.
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

  const expiry = createExpiry(clock);
  let isClosed = false;

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

  const inserters = new Map<string, Batcher<Raw>>();
  /**
   * Inserts go out in batches per collection (batch/batcher.ts): the inserts asked in one turn of
   * the event loop, or while the previous batch is in flight, are one `insertMany` (unordered, so
   * each document succeeds or fails alone, as separate inserts would). A webhook claim or a chat
   * line per message then costs one round trip per batch instead of one per message.
   */
  function inserterOf(name: string): Batcher<Raw> {
    let inserter = inserters.get(name);
    if (!inserter) {
      inserter = createBatcher<Raw>({ sendBatch: (docs) => insertBatch(rawCollection(name), docs) });
      inserters.set(name, inserter);
    }
    return inserter;
  }

  const engine: MongoEngine = { rawCollection, liveFilter, purgeExpired, inserterOf, expiry, log };
  const collection = <T extends Document>(name: string): Collection<T> => mongoCollection<T>(name, engine);

  async function sweep(): Promise<void> {
    for (const name of expiry.collections()) {
      if (isClosed) return;
      await purgeExpired(name);
    }
  }

  const sweeper = startSweeper(sweepIntervalMs, sweep, log);

  return {
    collection,
    claimSet: (name, spec) => collectionClaimSet(collection(name), spec),
    recentLog: (name, spec) => collectionRecentLog(collection(name), spec),

    ping: async () => {
      if (isClosed) throw new Error('the mongo store is closed');
      await db.admin().command({ ping: 1 });
    },

    close: async () => {
      if (isClosed) return;
      isClosed = true;
      await sweeper.stop();
      await connection.close();
    },
  };
}

/** What one collection's operations need from the store that made it. */
interface MongoEngine {
  rawCollection(name: string): RawCollection;
  liveFilter(name: string, filter: Filter): RawFilter;
  purgeExpired(name: string): Promise<unknown>;
  inserterOf(name: string): Batcher<Raw>;
  expiry: Expiry;
  log: Logger;
}

/** One `insertMany` of a batch; each document's own failure (a duplicate key) goes back to its caller alone. */
async function insertBatch(collection: RawCollection, docs: Raw[]): Promise<unknown[] | undefined> {
  try {
    await collection.insertMany(docs, { ordered: false });
    return undefined;
  } catch (error) {
    if (!(error instanceof mongoose.mongo.MongoBulkWriteError)) throw error;
    const failures = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    const errors: unknown[] = docs.map(() => undefined);
    for (const failure of failures) {
      errors[failure.index] = Object.assign(new Error(failure.errmsg ?? 'insert failed'), { code: failure.code });
    }
    return errors;
  }
}

/** The port's operations on one collection, each one engine command. */
function mongoCollection<T extends Document>(name: string, engine: MongoEngine): Collection<T> {
  const { liveFilter, expiry } = engine;
  const raw = () => engine.rawCollection(name);
  const hasExpiry = (): boolean => expiry.expiredConditions(name).length > 0;
  /** A single-document write, retried once when an expired document held its unique key. */
  const singleWrite = <R>(write: () => Promise<R>): Promise<R> =>
    retryAfterPurgingExpired(
      hasExpiry(),
      () => engine.purgeExpired(name),
      () => translateErrors(name, write),
    );

  return {
    insertOne: (doc) =>
      singleWrite(async () => {
        const toInsert = { ...doc, _id: doc._id ?? randomUUID() } as Raw;
        await engine.inserterOf(name).send(toInsert);
        return toInsert as unknown as T;
      }),

    findOne: async (filter) => (await raw().findOne(liveFilter(name, filter))) as T | null,

    find: async (filter, findOptions) => {
      let cursor = raw().find(liveFilter(name, filter));
      if (findOptions?.sort) cursor = cursor.sort(findOptions.sort);
      if (findOptions?.skip) cursor = cursor.skip(findOptions.skip);
      if (findOptions?.limit) cursor = cursor.limit(findOptions.limit);
      return (await cursor.toArray()) as unknown as T[];
    },

    count: async (filter = {}) => raw().countDocuments(liveFilter(name, filter)),

    updateOne: async (filter, update, updateOptions) => {
      checkUpdate(update);
      const isUpsert = updateOptions?.upsert ?? false;
      const done = await singleWrite(() =>
        raw().updateOne(liveFilter(name, filter), toRawUpdate(filter, update, isUpsert), { upsert: isUpsert }),
      );
      const result: UpdateResult = { matchedCount: done.matchedCount, modifiedCount: done.modifiedCount };
      if (done.upsertedId !== null && done.upsertedId !== undefined) result.upsertedId = String(done.upsertedId);
      return result;
    },

    // not retried after purging expired documents: a failed updateMany may have changed some documents
    updateMany: (filter, update) => {
      checkUpdate(update);
      return translateErrors(name, async (): Promise<UpdateResult> => {
        const done = await raw().updateMany(liveFilter(name, filter), toRawUpdate(filter, update, false));
        return { matchedCount: done.matchedCount, modifiedCount: done.modifiedCount };
      });
    },

    // one unordered bulkWrite; not retried after purging expired documents (some writes may have applied)
    updateEach: async (writes) => {
      for (const { update } of writes) checkUpdate(update);
      if (writes.length === 0) return [];
      const operations = writes.map(({ filter, update, upsert = false }) => ({
        updateOne: { filter: liveFilter(name, filter), update: toRawUpdate(filter, update, upsert), upsert },
      }));
      return eachOutcome(name, writes.length, () => raw().bulkWrite(operations, { ordered: false }));
    },

    findOneAndUpdate: async (filter, update, updateOptions) => {
      checkUpdate(update);
      const isUpsert = updateOptions?.upsert ?? false;
      const found = await singleWrite(() =>
        raw().findOneAndUpdate(liveFilter(name, filter), toRawUpdate(filter, update, isUpsert), {
          upsert: isUpsert,
          returnDocument: updateOptions?.returnDocument ?? 'after',
        }),
      );
      return found as T | null;
    },

    // expired documents count as gone here too, so the numbers agree with count()
    deleteOne: async (filter) => (await raw().deleteOne(liveFilter(name, filter))).deletedCount,

    deleteMany: async (filter) => (await raw().deleteMany(liveFilter(name, filter))).deletedCount,

    createIndex: async (spec: IndexSpec) => {
      expiry.register(name, spec);
      await createMongoIndex(raw(), name, spec, engine.log);
    },
  };
}

async function createMongoIndex(collection: RawCollection, name: string, spec: IndexSpec, log: Logger): Promise<void> {
  const indexOptions = spec.unique ? { unique: true } : {};
  if (spec.expireAfterSeconds !== undefined) {
    // the native TTL index is a backstop for documents no running store sweeps; reads and the
    // sweep go by the injected clock either way
    try {
      await collection.createIndex(spec.fields, { ...indexOptions, expireAfterSeconds: spec.expireAfterSeconds });
      return;
    } catch (err) {
      if (isIndexConflict(err) && (await changeExpiry(collection, name, spec.fields, spec.expireAfterSeconds, log))) {
        return;
      }
      log.debug({ err, collection: name }, 'no native TTL index; the store expires documents itself');
    }
  }
  try {
    await translateErrors(name, () => collection.createIndex(spec.fields, indexOptions));
  } catch (err) {
    // an index on these fields exists with other options: a TTL index of an earlier expiry (the
    // TTL of kick-link's sent message ids went from a day to 10 minutes). It serves the reads; the
    // store's own sweep and read filter apply the new expiry (expiry.register above).
    if (spec.expireAfterSeconds === undefined || !isIndexConflict(err)) throw err;
    log.warn(
      { err, collection: name },
      'an index on these fields exists with another expiry: the store applies the new one',
    );
  }
}

/**
 * A TTL index made by an earlier version with another expiry (kick-link's sent message ids went from
 * a day to 10 minutes) gets the new one in place, as MongoDB allows (`collMod`); false when the
 * server refuses, and the store's own sweep and read filter then apply the new expiry.
 */
async function changeExpiry(
  collection: RawCollection,
  name: string,
  keyPattern: IndexSpec['fields'],
  expireAfterSeconds: number,
  log: Logger,
): Promise<boolean> {
  try {
    await collection.db.command({ collMod: collection.collectionName, index: { keyPattern, expireAfterSeconds } });
    log.info({ collection: name, expireAfterSeconds }, 'the TTL index now expires documents after the new time');
    return true;
  } catch (err) {
    log.debug({ err, collection: name }, 'the TTL index could not be changed in place');
    return false;
  }
}

/** IndexOptionsConflict (85) or IndexKeySpecsConflict (86): the index exists with other options. */
function isIndexConflict(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 85 || error.code === 86);
}

/**
 * The outcome of each write of an unordered bulk write: undefined when applied, else its own error
 * (a duplicate key as DuplicateKeyError). An error that is not about single writes is thrown.
 */
async function eachOutcome(
  collection: string,
  count: number,
  run: () => Promise<unknown>,
): Promise<Array<Error | undefined>> {
  const outcomes: Array<Error | undefined> = Array.from({ length: count }, () => undefined);
  try {
    await run();
    return outcomes;
  } catch (error) {
    if (!(error instanceof mongoose.mongo.MongoBulkWriteError)) throw error;
    const failures = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    // no single write failed (a write concern error): which writes hold is unknown
    if (failures.length === 0) throw error;
    for (const failure of failures) {
      const message = failure.errmsg ?? 'update failed';
      outcomes[failure.index] =
        failure.code === 11000
          ? new DuplicateKeyError(collection, `duplicate key in ${collection}: ${message}`)
          : Object.assign(new Error(message), { code: failure.code });
    }
    return outcomes;
  }
}

/** MongoDB would give an upserted document an ObjectId; the port promises string ids. */
function toRawUpdate(filter: Filter, update: Update, isUpsert: boolean): RawUpdate {
  if (!isUpsert || '_id' in upsertSeed(filter) || update.$setOnInsert?._id !== undefined) return update as RawUpdate;
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: randomUUID() } } as RawUpdate;
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
  return error instanceof Error && 'code' in error && error.code === 11000;
}
