import { randomUUID } from 'node:crypto';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Datastore from '@seald-io/nedb';
import { systemClock, type Clock } from '../clock/clock';
import { createSilentLogger, type Logger } from '../log/logger';
import { ensurePrivateDir, privateDirMode, privateFileMode, restrictMode } from '../files';
import { createClaimLog, defaultMaxClaims } from './claim-log';
import { createRecentLog } from './recent-log';
import { rewriteDatafile, type IndexDefinition, type Snapshot } from './compaction';
import { createJournal, type Journal } from './journal';
import { createExpiry, retryAfterPurgingExpired, startSweeper, type Expiry } from './expiry';
import {
  DuplicateKeyError,
  type ClaimSet,
  type ClaimSetSpec,
  type Collection,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type RecentEntry,
  type RecentLog,
  type RecentLogSpec,
  type Store,
  type Update,
  type UpdateResult,
} from './store';
import { checkUpdate, isPlainObject, setPath, upsertSeed } from './update';
import { createKeyedQueue, type KeyedQueue } from '../keyed-queue';
import { installInPlaceIndexRemoval } from './nedb-index-removal';
import { serializeNedbLine } from './nedb-serialize';
import { installInPlaceReindex } from './nedb-index-update';
import { installKeyComparisonShortcut } from './nedb-compare-keys';
import { nedbSingleUpdates, type SingleUpdates } from './nedb-single-update';
import { installMapIdIndex } from './nedb-id-index';

// a document leaves a NeDB index key shared by many others without copying the key's array (see there)
installInPlaceIndexRemoval();
// an updated document stays in place in the indexes whose key it did not change (see there)
installInPlaceReindex();
// two string, number or Date keys compare without NeDB's walk of its type hierarchy (see there)
installKeyComparisonShortcut();

export interface EmbeddedStoreOptions {
  /** One datafile per collection is kept here (services pass `data/<service>/`). */
  dir: string;
  clock?: Clock;
  /** How often expired documents are deleted and datafiles compacted; 30 s by default. */
  sweepIntervalMs?: number;
  log?: Logger;
  /** How many claims each claim set holds at most (claim-log.ts); 1,000,000 by default. */
  maxClaims?: number;
}

type Raw = Record<string, unknown> & { _id: string };

/** A single-document write's documents: NeDB's own objects, not to be changed (nor handed out uncopied). */
interface Applied {
  before: Raw | null;
  after: Raw | null;
  isUpserted: boolean;
  /** Set when the update was made in place (`before` is then `after` itself unless kept as a copy). */
  isModified?: boolean;
}

// NeDB's deep copy, as its finds return documents (Dates are shared, as there)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nedbModel = require('@seald-io/nedb/lib/model.js') as { deepCopy<T>(doc: T): T };
const copyOfNedbDocument = <T>(doc: T): T => nedbModel.deepCopy(doc);

interface CollectionState {
  name: string;
  filename: string;
  datastore: Datastore<Raw>;
  loaded: Promise<void>;
  journal: Journal;
  /** Lines appended to the datafile since it was last compacted. */
  linesSinceCompaction: number;
  /** Documents in the datafile when it was last compacted (or loaded). */
  documentsAtCompaction: number;
  /**
   * Each document's latest line, by _id: the datafile folded as NeDB folds it on load, kept as
   * the journal writes it. A compaction's snapshot is taken from here because NeDB's own list
   * (`getAllData()`, a walk of its _id tree) takes ~110 ms for 250,000 documents, Array.from of a
   * Map a few. NeDB replaces a document on update, so the objects held stay as they were written.
   */
  latest: Map<unknown, object>;
}

/**
 * A datafile is rewritten (compacted) once the lines appended since the last rewrite outnumber its
 * documents then (and at least this many): rewriting is O(documents), so it is amortised over at
 * least as many writes. It runs in chunks beside the writes (compaction.ts).
 */
const minLinesBeforeCompaction = 1000;

/**
 * The datafiles hold password hashes and encrypted Kick tokens: owner only, whatever the umask.
 * NeDB applies these to the files and folders it creates (and to each compaction's new file).
 */
const dataFileMode = privateFileMode;

// collection names become file names
const collectionNamePattern = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The hook the journal takes over: NeDB's own persistence, which appends each write on its own. */
interface NedbPersistenceHook {
  persistNewStateAsync(docs: Record<string, unknown>[]): Promise<void>;
}

/**
 * Opens one collection's datafile. NeDB's persistence (not part of its typed, public API) hands
 * every write's documents to `persistNewStateAsync`; that one method is replaced so the journal
 * writes NeDB's own lines in groups (see Journal and the package README). Should an upgrade of
 * NeDB drop the method, this refuses to start rather than silently keep nothing.
 */
function openCollection(dir: string, name: string): CollectionState {
  const filename = path.join(dir, `${name}.db`);
  let loadError: Error | undefined;
  const datastore = new Datastore<Raw>({
    filename,
    modes: { fileMode: dataFileMode, dirMode: privateDirMode },
    autoload: true,
    // with an onload handler NeDB does not throw a load error out of nowhere; the ops rethrow it instead
    onload: (error) => {
      loadError = error ?? undefined;
    },
  });
  // before the datafile is loaded into it: a Map instead of an AVL tree for _id (see there)
  installMapIdIndex(datastore);
  const journal = createJournal(filename, dataFileMode);
  const persistence = datastore.persistence as unknown as Partial<NedbPersistenceHook>;
  if (typeof persistence.persistNewStateAsync !== 'function') {
    throw new Error('@seald-io/nedb no longer has persistence.persistNewStateAsync: the journal needs it (README)');
  }
  persistence.persistNewStateAsync = async (docs) => {
    if (docs.length === 0) return;
    let lines = '';
    for (const doc of docs) {
      lines += `${serializeNedbLine(doc)}\n`; // the line NeDB would write
      if ('$$indexCreated' in doc || '$$indexRemoved' in doc) continue; // index lines are taken from NeDB
      if (doc.$$deleted === true) state.latest.delete(doc._id);
      else state.latest.set(doc._id, doc);
    }
    journal.append(lines);
    state.linesSinceCompaction += docs.length;
  };
  const loaded = (datastore.autoloadPromise ?? Promise.resolve())
    .catch(() => {
      throw loadError ?? new Error(`could not load collection ${name}`);
    })
    .then(async () => {
      for (const doc of datastore.getAllData()) state.latest.set(doc._id, doc);
      state.documentsAtCompaction = state.latest.size;
      // a datafile written before modes were set keeps its old mode until tightened here
      await restrictMode(filename, dataFileMode);
    });
  // keeps an unobserved load failure from becoming an unhandled rejection; every op still sees it
  loaded.catch(() => undefined);
  const state: CollectionState = {
    name,
    filename,
    datastore,
    loaded,
    journal,
    linesSinceCompaction: 0,
    documentsAtCompaction: 0,
    latest: new Map(),
  };
  return state;
}

/** What one collection's operations need from the store that made it. */
interface EmbeddedEngine {
  /** Queued behind the collection's other writes; resolves once its lines are in the datafile. */
  write<R>(name: string, run: (datastore: Datastore<Raw>) => Promise<R>): Promise<R>;
  read<R>(name: string, run: (datastore: Datastore<Raw>) => Promise<R>): Promise<R>;
  /** The filter in NeDB's terms, expired documents left out. */
  liveFilter(name: string, filter: Filter): Filter;
  purgeExpired(name: string, datastore: Datastore<Raw>): Promise<number>;
  expiry: Expiry;
}

/**
 * The on-disk default adapter, on NeDB. One process owns the directory: NeDB keeps the data in
 * memory and appends every write to `<dir>/<collection>.db`, so two processes sharing a directory
 * would overwrite each other. Writes to one collection run one after another (NeDB has no
 * findOneAndUpdate), which makes every read-modify-write below atomic within the process.
 */
export async function createEmbeddedStore(options: EmbeddedStoreOptions): Promise<Store> {
  const { dir, clock = systemClock, sweepIntervalMs = 30_000, log = createSilentLogger() } = options;
  await ensurePrivateDir(dir);
  const expiry = createExpiry(clock);
  const states = new Map<string, CollectionState>();
  const queue = createKeyedQueue();
  const claimSets = embeddedClaimSets({ dir, clock, log, maxClaims: options.maxClaims ?? defaultMaxClaims });
  const recentLogs = embeddedRecentLogs({ dir, log });
  let isClosed = false;

  function stateOf(name: string): CollectionState {
    if (isClosed) throw new Error('the embedded store is closed');
    let state = states.get(name);
    if (!state) {
      state = openCollection(dir, name);
      states.set(name, state);
    }
    return state;
  }

  const engine: EmbeddedEngine = {
    expiry,
    liveFilter: (name, filter) => withoutExpired(toNedbFilter(filter), expiry.expiredConditions(name)),
    async write(name, run) {
      const state = stateOf(name);
      const result = await queue.run(name, async () => {
        await state.loaded;
        return translateErrors(name, () => run(state.datastore));
      });
      await state.journal.written();
      return result;
    },
    async read(name, run) {
      const state = stateOf(name);
      await state.loaded;
      return run(state.datastore);
    },
    purgeExpired(name, datastore) {
      const expired = expiry.expiredConditions(name);
      const [only] = expired;
      if (only === undefined) return Promise.resolve(0);
      // a single rule goes as it is: NeDB reads `{ field: { $lt: cutoff } }` as a range of the TTL
      // field's index, while inside $or it matches every document (a full scan on each duplicate
      // claim, which retryAfterPurgingExpired purges for: ~7 ms at 20,000 claims, `npm run bench:store`)
      return datastore.removeAsync(expired.length === 1 ? only : { $or: expired }, { multi: true });
    },
  };

  async function sweep(): Promise<void> {
    for (const name of expiry.collections()) {
      if (isClosed) return;
      if (states.has(name)) await purgeInBatches(engine, name, () => isClosed);
    }
    await compactWhereDue(states, queue, () => isClosed);
  }

  const sweeper = startSweeper(sweepIntervalMs, sweep, log);

  /**
   * A claim set or a recent log, which is no collection: the datafile of its name is a former
   * version's, which it deletes (claim-log.ts) or imports and deletes (recent-log.ts) on open.
   */
  function logNamed<R>(name: string, kind: string, get: () => R): R {
    if (isClosed) throw new Error('the embedded store is closed');
    if (states.has(name)) throw new Error(`"${name}" is a collection of this store, not a ${kind}`);
    return get();
  }

  return {
    collection: <T extends Document>(name: string) => {
      if (recentLogs.has(name)) throw new Error(`"${name}" is a recent log of this store, not a collection`);
      return embeddedCollection<T>(name, engine);
    },
    claimSet: (name, spec) => logNamed(name, 'claim set', () => claimSets.get(name, spec)),
    recentLog: <E extends RecentEntry>(name: string, spec: RecentLogSpec) =>
      logNamed(name, 'recent log', () => recentLogs.get<E>(name, spec)),
    ping: async () => {
      if (isClosed) throw new Error('the embedded store is closed');
      await access(dir, constants.W_OK);
    },
    close: async () => {
      if (isClosed) return;
      isClosed = true;
      await sweeper.stop();
      await queue.idle();
      await claimSets.close();
      await recentLogs.close();
      await closeCollections(states, log);
    },
  };
}

/** NeDB appends every write to the datafile; rewriting it now and then keeps it from growing without bound. */
async function compactWhereDue(
  states: Map<string, CollectionState>,
  queue: KeyedQueue,
  isClosed: () => boolean,
): Promise<void> {
  for (const state of states.values()) {
    if (isClosed()) return;
    if (state.linesSinceCompaction < Math.max(minLinesBeforeCompaction, state.documentsAtCompaction)) continue;
    await compact(state, (take) =>
      queue.run(state.name, async () => {
        await state.loaded;
        return take();
      }),
    );
  }
}

/** The store's claim sets, one log folder each (`<dir>/<name>.claims`). */
function embeddedClaimSets(settings: { dir: string; clock: Clock; log: Logger; maxClaims: number }): {
  get(name: string, spec: ClaimSetSpec): ClaimSet;
  close(): Promise<void>;
} {
  const logs = new Map<string, ClaimSet & { close(): Promise<void> }>();
  return {
    get(name, spec) {
      if (!collectionNamePattern.test(name)) throw new Error(`invalid claim set name "${name}"`);
      let claimLog = logs.get(name);
      if (!claimLog) {
        claimLog = createClaimLog({
          dir: path.join(settings.dir, `${name}.claims`),
          expireAfterMs: spec.expireAfterSeconds * 1000,
          maxClaims: settings.maxClaims,
          clock: settings.clock,
          log: settings.log,
          // earlier versions kept the claims as documents of the collection of the same name
          formerDatafile: path.join(settings.dir, `${name}.db`),
        });
        logs.set(name, claimLog);
      }
      return claimLog;
    },
    async close() {
      for (const claimLog of logs.values()) await claimLog.close();
    },
  };
}

/** The store's recent logs, one log folder each (`<dir>/<name>.recent`). */
function embeddedRecentLogs(settings: { dir: string; log: Logger }): {
  has(name: string): boolean;
  /** The log of that name; the spec of its first call holds. */
  get<E extends RecentEntry>(name: string, spec: RecentLogSpec): RecentLog<E>;
  close(): Promise<void>;
} {
  const logs = new Map<string, RecentLog<RecentEntry> & { close(): Promise<void> }>();
  return {
    has: (name) => logs.has(name),
    get<E extends RecentEntry>(name: string, spec: RecentLogSpec) {
      if (!collectionNamePattern.test(name)) throw new Error(`invalid recent log name "${name}"`);
      let recentLog = logs.get(name);
      if (!recentLog) {
        recentLog = createRecentLog<RecentEntry>({
          dir: path.join(settings.dir, `${name}.recent`),
          keepPerKey: spec.keepPerKey,
          log: settings.log,
          // earlier versions kept the entries as documents of the collection of the same name
          former: { datafile: path.join(settings.dir, `${name}.db`), keyField: spec.keyField, atField: spec.atField },
        });
        logs.set(name, recentLog);
      }
      // the entries are JSON text until read: the type is the caller's word, as a collection's is
      return recentLog as unknown as RecentLog<E>;
    },
    async close() {
      for (const recentLog of logs.values()) await recentLog.close();
    },
  };
}

/** Expired documents the sweep deletes in one write: 6–37 ms each for 30,000 expired of 50,000 (docs/performance.md). */
const purgeBatchSize = 1000;

/**
 * Deletes a collection's expired documents in batches, each a write of its own: the collection's
 * other writes (and everything else on the event loop) go in between instead of waiting for
 * thousands of deletions at once.
 */
async function purgeInBatches(engine: EmbeddedEngine, name: string, isClosed: () => boolean): Promise<void> {
  let purged = purgeBatchSize;
  while (purged === purgeBatchSize && !isClosed()) {
    purged = await engine.write(name, (datastore) => purgeBatch(datastore, engine.expiry.expiredConditions(name)));
    // a turn of the event loop between batches: the chat waiting meanwhile goes first (a write no
    // longer waits for the next turn by itself: end-of-task.ts)
    if (purged === purgeBatchSize) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Deletes up to purgeBatchSize documents matching one of the expired conditions; returns how many. */
async function purgeBatch(datastore: Datastore<Raw>, expired: Filter[]): Promise<number> {
  const [only] = expired;
  if (only === undefined) return 0;
  // a single rule as it is, so NeDB reads it as a range of the TTL field's index (see purgeExpired)
  const found: Raw[] = await datastore
    .findAsync(expired.length === 1 ? only : { $or: expired }, { _id: 1 })
    .limit(purgeBatchSize);
  if (found.length === 0) return 0;
  return datastore.removeAsync({ _id: { $in: found.map((doc) => doc._id) } }, { multi: true });
}

/**
 * Rewrites the datafile to one line per live document (compaction.ts). The snapshot is taken
 * between two writes of the collection (`betweenWrites`), when the journal starts keeping the
 * lines that must follow it.
 */
async function compact(
  state: CollectionState,
  betweenWrites: (take: () => Snapshot) => Promise<Snapshot>,
): Promise<void> {
  const snapshot = await betweenWrites(() => {
    state.journal.startCapture();
    state.linesSinceCompaction = 0;
    const docs = Array.from(state.latest.values());
    state.documentsAtCompaction = docs.length;
    return { docs, indexes: persistedIndexes(state.datastore) };
  });
  await rewriteDatafile({ filename: state.filename, fileMode: dataFileMode, journal: state.journal, snapshot });
}

/** The indexes NeDB writes into the datafile: all but the one on _id, which it always has. */
function persistedIndexes(datastore: Datastore<Raw>): IndexDefinition[] {
  const { indexes } = datastore as unknown as { indexes: Record<string, IndexDefinition> };
  return Object.entries(indexes).flatMap(([key, index]) => (key === '_id' ? [] : [index]));
}

/** Flushes and compacts every loaded collection; one failing does not keep the others from it. */
async function closeCollections(states: Map<string, CollectionState>, log: Logger): Promise<void> {
  let firstError: unknown;
  for (const [name, state] of states) {
    try {
      await state.loaded;
    } catch {
      continue; // never loaded, so nothing to flush
    }
    try {
      await state.journal.close();
      // the queue is idle (the store is closed): nothing writes between snapshot and rewrite
      await compact(state, async (take) => take());
    } catch (err) {
      log.error({ err, collection: name }, 'could not compact the datafile on close');
      firstError ??= err;
    }
  }
  if (firstError !== undefined) throw firstError;
}

function withoutExpired(nedbFilter: Filter, expired: Filter[]): Filter {
  const [only] = expired;
  if (only === undefined) return nedbFilter;
  const notExpired = { $not: expired.length === 1 ? only : { $or: expired } };
  return '$not' in nedbFilter ? { $and: [nedbFilter, notExpired] } : { ...nedbFilter, ...notExpired };
}

/** The port's operations on one collection (each write queued behind the collection's others). */
function embeddedCollection<T extends Document>(name: string, engine: EmbeddedEngine): Collection<T> {
  if (!collectionNamePattern.test(name)) throw new Error(`invalid collection name "${name}"`);
  const { write, read, expiry } = engine;
  const live = (filter: Filter) => engine.liveFilter(name, filter);
  /** A single-document write, retried once after purging expired documents that held its unique key. */
  const singleWrite = <R>(datastore: Datastore<Raw>, run: () => Promise<R>): Promise<R> =>
    retryAfterPurgingExpired(
      expiry.expiredConditions(name).length > 0,
      () => engine.purgeExpired(name, datastore),
      () => translateErrors(name, run),
    );
  const applyOnce = (filter: Filter, update: Update, isUpsert: boolean, keepBefore = false): Promise<Applied> => {
    checkUpdate(update);
    return write(name, (datastore) =>
      singleWrite(datastore, () => applyToOne(datastore, live(filter), filter, update, isUpsert, keepBefore)),
    );
  };

  const collection: Collection<T> = {
    insertOne: (doc) =>
      write(name, async (datastore) => {
        const toInsert = { ...doc, _id: doc._id ?? randomUUID() };
        return (await singleWrite(datastore, () => datastore.insertAsync(toInsert))) as unknown as T;
      }),
    findOne: (filter) => read(name, async (datastore) => (await datastore.findOneAsync(live(filter))) as T | null),
    find: (filter, findOptions?: FindOptions) =>
      read(name, async (datastore) => (await findIn(datastore, live(filter), findOptions)) as unknown as T[]),
    count: (filter = {}) => read(name, (datastore) => datastore.countAsync(live(filter))),
    updateOne: async (filter, update, updateOptions) => {
      const { before, after, isUpserted, isModified } = await applyOnce(filter, update, updateOptions?.upsert ?? false);
      const result: UpdateResult = {
        matchedCount: before ? 1 : 0,
        // compared when read: on the hot path (claims, counts) no caller reads it, and the deep
        // comparison of every updated document showed in the owner's profile. NeDB replaces a
        // document it copies on update, so `before` and `after` stay as they were until then; an
        // update in place says itself whether it changed anything.
        get modifiedCount() {
          if (isModified !== undefined) return isModified ? 1 : 0;
          return before && !isDeepStrictEqual(before, after) ? 1 : 0;
        },
      };
      if (isUpserted && after) result.upsertedId = after._id;
      return result;
    },
    updateMany: (filter, update) => {
      checkUpdate(update);
      return write(name, (datastore) => updateManyIn(datastore, live(filter), update));
    },
    // in memory there is no round trip to save: each write is an updateOne of its own
    updateEach: async (writes) => {
      for (const { update } of writes) checkUpdate(update);
      return Promise.all(
        writes.map(({ filter, update, upsert }) =>
          collection.updateOne(filter, update, { upsert: upsert ?? false }).then(
            () => undefined,
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          ),
        ),
      );
    },
    findOneAndUpdate: async (filter, update, updateOptions) => {
      const isBeforeWanted = updateOptions?.returnDocument === 'before';
      const { before, after } = await applyOnce(filter, update, updateOptions?.upsert ?? false, isBeforeWanted);
      const returned = isBeforeWanted ? before : after;
      // NeDB's own object (applyToOne): the caller gets a copy it may change
      return (returned && copyOfNedbDocument(returned)) as T | null;
    },
    // expired documents count as gone here too, so the numbers agree with count()
    deleteOne: (filter) => write(name, (datastore) => datastore.removeAsync(live(filter), { multi: false })),
    deleteMany: (filter) => write(name, (datastore) => datastore.removeAsync(live(filter), { multi: true })),
    createIndex: (spec: IndexSpec) =>
      write(name, async (datastore) => {
        expiry.register(name, spec);
        await ensureNedbIndex(datastore, spec);
      }),
  };
  return collection;
}

async function findIn(datastore: Datastore<Raw>, filter: Filter, findOptions?: FindOptions): Promise<Raw[]> {
  let cursor = datastore.findAsync(filter);
  if (findOptions?.sort) cursor = cursor.sort(findOptions.sort);
  if (findOptions?.skip) cursor = cursor.skip(findOptions.skip);
  // 0 means no limit, as in MongoDB
  if (findOptions?.limit) cursor = cursor.limit(findOptions.limit);
  return cursor;
}

/** The single-document updates of each datastore (nedb-single-update.ts); undefined where NeDB differs. */
const singleUpdatesByDatastore = new WeakMap<Datastore<Raw>, SingleUpdates | undefined>();

function singleUpdatesOf(datastore: Datastore<Raw>): SingleUpdates | undefined {
  if (!singleUpdatesByDatastore.has(datastore)) singleUpdatesByDatastore.set(datastore, nedbSingleUpdates(datastore));
  return singleUpdatesByDatastore.get(datastore);
}

/**
 * The first document matching `liveFilter` updated (or, with `isUpsert`, one inserted), before and
 * after: NeDB's own objects where nedb-single-update.ts applies (the caller copies what it hands
 * on), copies otherwise.
 */
async function applyToOne(
  datastore: Datastore<Raw>,
  liveFilter: Filter,
  filter: Filter,
  update: Update,
  isUpsert: boolean,
  keepBefore: boolean,
): Promise<Applied> {
  const { $setOnInsert: setOnInsert, ...modifiers } = update;
  const hasModifiers = Object.keys(modifiers).length > 0;
  const singleUpdates = singleUpdatesOf(datastore);
  if (singleUpdates?.applies() && hasModifiers) {
    const updated = await singleUpdates.updateFirst(liveFilter, modifiers, keepBefore);
    if (updated) {
      const { before, after, isModified } = updated;
      return { before: before as Raw, after: after as Raw, isUpserted: false, isModified };
    }
    if (!isUpsert) return { before: null, after: null, isUpserted: false };
    const inserted = await singleUpdates.insertModified(upsertSeedOf(filter, setOnInsert), modifiers);
    return { before: null, after: inserted as Raw, isUpserted: true };
  }
  const before: Raw | null = await datastore.findOneAsync(liveFilter);
  if (before) {
    if (!hasModifiers) return { before, after: before, isUpserted: false };
    const { affectedDocuments } = await datastore.updateAsync({ _id: before._id }, modifiers, {
      returnUpdatedDocs: true,
    });
    return { before, after: affectedDocuments, isUpserted: false };
  }
  if (!isUpsert) return { before: null, after: null, isUpserted: false };

  const seed = upsertSeedOf(filter, setOnInsert);
  if (!hasModifiers) {
    return { before: null, after: await datastore.insertAsync(seed as Raw), isUpserted: true };
  }
  // NeDB's own upsert applies the modifiers to the seed and inserts the result in one write. It
  // first looks for a document matching its query: `$not: {}` matches nothing, so it always
  // inserts (a taken _id fails as in MongoDB), and NeDB leaves $-keys out of the inserted document.
  const { affectedDocuments } = await datastore.updateAsync({ ...seed, $not: {} }, modifiers, {
    upsert: true,
    returnUpdatedDocs: true,
  });
  return { before: null, after: affectedDocuments, isUpserted: true };
}

/** The document an upsert inserts before its modifiers: the filter's equalities, $setOnInsert, an _id. */
function upsertSeedOf(filter: Filter, setOnInsert: Update['$setOnInsert']): Record<string, unknown> {
  const seed = upsertSeed(filter);
  for (const [field, value] of Object.entries(setOnInsert ?? {})) setPath(seed, field, value);
  if (seed._id === undefined) seed._id = randomUUID();
  return seed;
}

async function updateManyIn(datastore: Datastore<Raw>, liveFilter: Filter, update: Update): Promise<UpdateResult> {
  const { $setOnInsert: _ignoredWithoutUpsert, ...modifiers } = update;
  const before: Raw[] = await datastore.findAsync(liveFilter);
  if (before.length === 0 || Object.keys(modifiers).length === 0) {
    return { matchedCount: before.length, modifiedCount: 0 };
  }
  const ids = before.map((doc) => doc._id);
  // one NeDB write: it applies to every document or, on a unique-key failure, to none
  const { affectedDocuments } = await datastore.updateAsync({ _id: { $in: ids } }, modifiers, {
    multi: true,
    returnUpdatedDocs: true,
  });
  const beforeById = new Map(before.map((doc) => [doc._id, doc]));
  const after: Raw[] = affectedDocuments ?? [];
  const modifiedCount = after.filter((doc) => !isDeepStrictEqual(beforeById.get(doc._id), doc)).length;
  return { matchedCount: before.length, modifiedCount };
}

/**
 * NeDB's own TTL would expire by wall-clock time, so expiry is left to the injected clock. NeDB
 * keeps the index (and its unique flag) in the datafile and ignores a second creation.
 */
async function ensureNedbIndex(datastore: Datastore<Raw>, spec: IndexSpec): Promise<void> {
  const fields = Object.keys(spec.fields);
  const [only] = fields;
  if (fields.length > 1 && only !== undefined) {
    // MongoDB answers queries on the first field of a compound index from that index; NeDB uses a
    // compound index only when every one of its fields is matched exactly. So the first field gets
    // an index of its own, and the compound one is kept only to enforce uniqueness (a non-unique
    // one costs ~200 bytes a document and serves no query here).
    await datastore.ensureIndexAsync({ fieldName: only });
    if (spec.unique) await datastore.ensureIndexAsync({ fieldName: fields, unique: true });
    // one made by an earlier version goes (NeDB's public API cannot tell whether there is one: removing
    // none is a no-op that the next compaction drops from the datafile)
    else await datastore.removeIndexAsync([...fields].sort().join(','));
    return;
  }
  await datastore.ensureIndexAsync({ fieldName: only ?? fields, unique: spec.unique ?? false });
}

async function translateErrors<R>(collection: string, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error && 'errorType' in error && error.errorType === 'uniqueViolated') {
      throw new DuplicateKeyError(collection, `duplicate key in ${collection}: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Rewrites the parts of the port's filter language that NeDB lacks or reads differently: NeDB has
 * no $eq; in MongoDB `null` equality also matches a missing field while `$ne: null` does not; and
 * on an array NeDB's $ne / $nin match when some element differs, MongoDB's when no element is
 * equal, which is NeDB's `$not` of the equality / $in.
 */
function toNedbFilter(filter: Filter): Filter {
  const rewritten: Filter = {};
  const clauses: Filter[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or') && Array.isArray(value)) {
      rewritten[key] = value.map((clause: unknown) => (isPlainObject(clause) ? toNedbFilter(clause) : clause));
      continue;
    }
    if (key.startsWith('$')) {
      rewritten[key] = value;
      continue;
    }
    if (!isPlainObject(value) || !Object.keys(value).some((k) => k.startsWith('$'))) {
      if (value === null) clauses.push(nullOrMissing(key));
      else rewritten[key] = value;
      continue;
    }
    const { $eq: equal, $ne: notEqual, $nin: notIn, ...rest } = value;
    if ('$eq' in value) clauses.push(equal === null ? nullOrMissing(key) : { [key]: equal });
    if ('$ne' in value)
      clauses.push(notEqual === null ? { [key]: { $exists: true, $ne: null } } : { $not: { [key]: notEqual } });
    if ('$nin' in value) clauses.push({ $not: { [key]: { $in: notIn } } });
    if (Object.keys(rest).length > 0) rewritten[key] = rest;
  }
  if (clauses.length === 0) return rewritten;
  const existingAnd: unknown[] = Array.isArray(rewritten.$and) ? rewritten.$and : [];
  return { ...rewritten, $and: [...existingAnd, ...clauses] };
}

function nullOrMissing(key: string): Filter {
  return { $or: [{ [key]: null }, { [key]: { $exists: false } }] };
}
