/**
 * The document store port: what Kickstand's services need from a document database, with two
 * adapters (embedded on-disk default, MongoDB through mongoose) that pass one contract suite.
 *
 * Filters and updates use MongoDB's query language, limited to this subset so that both adapters
 * agree:
 *   filter: equality on a field or a dot path, $eq $ne $in $nin $gt $gte $lt $lte $exists $regex (RegExp), $and $or
 *   update: $set $unset $inc $max (a number or a Date) $push (a value, or { $each: [...] }) $pull (a value or an
 *     equality filter) $setOnInsert
 * A single-document write is atomic on both adapters; there are no multi-document transactions.
 */

export interface Document {
  _id: string;
}

export type Filter = Record<string, unknown>;

export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, true>;
  $inc?: Record<string, number>;
  /** Sets the field to the value when the field is missing, null, or smaller (numbers with numbers, Dates with Dates). */
  $max?: Record<string, number | Date>;
  $push?: Record<string, unknown>;
  $pull?: Record<string, unknown>;
  $setOnInsert?: Record<string, unknown>;
}

export type SortOrder = 1 | -1;

export interface FindOptions {
  sort?: Record<string, SortOrder>;
  skip?: number;
  limit?: number;
}

export interface IndexSpec {
  fields: Record<string, SortOrder>;
  unique?: boolean;
  /**
   * Makes the index a TTL index on its single date field: a document expires this many seconds
   * after the date it holds. Expired documents are never returned by reads and are deleted by a
   * periodic sweep.
   */
  expireAfterSeconds?: number;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  /** Set when the update inserted a new document. */
  upsertedId?: string;
}

/** One write of `updateEach`: what `updateOne` takes. */
export interface UpdateOneWrite {
  filter: Filter;
  update: Update;
  upsert?: boolean;
}

/** Without `_id`, the store assigns a random UUID. */
export type NewDocument<T extends Document> = Omit<T, '_id'> & { _id?: string };

export interface Collection<T extends Document> {
  /** Throws DuplicateKeyError when a unique index already holds the value. */
  insertOne(doc: NewDocument<T>): Promise<T>;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /**
   * Several `updateOne`s at once, each atomic on its own document and independent of the others
   * (one unordered bulk write on MongoDB: one round trip instead of one per write). Resolves to one
   * entry per write, in order: undefined when it was applied, its error when it failed alone (a
   * DuplicateKeyError, as updateOne would throw). Rejects when the store could not be asked at all.
   */
  updateEach(writes: readonly UpdateOneWrite[]): Promise<Array<Error | undefined>>;
  /** Atomic: returns the document after the update (or before, if asked), or null when none matched. */
  findOneAndUpdate(
    filter: Filter,
    update: Update,
    options?: { upsert?: boolean; returnDocument?: 'before' | 'after' },
  ): Promise<T | null>;
  /** Returns how many documents were deleted. */
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  /** Idempotent: creating the same index again is a no-op. */
  createIndex(spec: IndexSpec): Promise<void>;
}

/**
 * Ids taken at most once within a time window (Kick's webhook message ids, the ids of the chat
 * lines kick-link posted): the first claim of an id
 * wins until it expires or is released. Durable on both adapters: a claim survives a restart.
 */
export interface ClaimSet {
  /** Prepares it (the TTL index; the embedded store replays its log). Call once before claiming. */
  open(): Promise<void>;
  /** True for the first claim of the id, or the first since it expired or was released; durable on return. */
  claim(id: string, at: Date): Promise<boolean>;
  /**
   * Whether a live claim holds the id, without claiming it: for sets that answer "seen before?"
   * for ids claimed elsewhere (kick-link's sent message ids, read by the echo check).
   */
  has(id: string): Promise<boolean>;
  /** The date of the live claim that holds the id (its `at`), or null: `has` with the date. */
  claimedAt(id: string): Promise<Date | null>;
  release(id: string): Promise<void>;
}

export interface ClaimSetSpec {
  /** A claim expires this many seconds after its `at`. */
  expireAfterSeconds: number;
  /** The date field a claim document keeps `at` in (MongoDB; the TTL index's field). */
  dateField: string;
}

/** An entry of a recent log: a JSON object (no Dates, no undefined: the embedded store keeps it as JSON text). */
export type RecentEntry = Record<string, unknown>;

/** One entry as `recent` returns it. */
export interface RecentItem<E extends RecentEntry> {
  id: string;
  at: Date;
  entry: E;
}

/**
 * The newest entries per key (a channel's recent chat lines): appends are idempotent by id, reads
 * return the newest `keepPerKey` at most. Durable on both adapters: the entries survive a restart.
 * The order is by `at`, then by id; entries older than a key's newest `keepPerKey` are dropped.
 */
export interface RecentLog<E extends RecentEntry> {
  /** Prepares it (the index; the embedded store replays its log). Call once before the rest. */
  open(): Promise<void>;
  /**
   * Adds the entry under `key` unless an entry of that id is already among the key's kept ones (a
   * no-op then); durable on return. Ids must be unique across keys: MongoDB keeps the id as the
   * document's `_id`. A `recent` called after `append` (before it resolves) sees it.
   * Resolves to false for that no-op, else true (an entry older than a full key's kept ones is
   * added and dropped at once, or at the next trim: true).
   */
  append(key: string, id: string, at: Date, entry: E): Promise<boolean>;
  /** The key's newest `limit` entries (at most `keepPerKey`), oldest first. */
  recent(key: string, limit: number): Promise<Array<RecentItem<E>>>;
  /** The key's kept entries with `from` ≤ `at` < `to`, oldest first (by `at`, then id). */
  range(key: string, from: Date, to: Date): Promise<Array<RecentItem<E>>>;
}

export interface RecentLogSpec {
  /** How many entries per key are kept; older ones are dropped. */
  keepPerKey: number;
  /** The field an entry document keeps its key in (MongoDB; indexed with `atField`). */
  keyField: string;
  /** The date field an entry document keeps `at` in (MongoDB). */
  atField: string;
}

export interface Store {
  collection<T extends Document>(name: string): Collection<T>;
  /**
   * The claim set `name`. MongoDB keeps one document per claim in the collection `name`; the
   * embedded store keeps claims in memory (bounded) with an append-only log (claim-log.ts).
   */
  claimSet(name: string, spec: ClaimSetSpec): ClaimSet;
  /**
   * The recent log `name`. MongoDB keeps one document per entry in the collection `name`
   * (`{ _id: id, [keyField]: key, [atField]: at, ...entry }`), trimmed per key now and then; the
   * embedded store keeps each key's entries in memory (bounded) with an append-only log
   * (recent-log.ts), importing the collection `name` an earlier version kept them in.
   */
  recentLog<E extends RecentEntry>(name: string, spec: RecentLogSpec): RecentLog<E>;
  /** Throws when the store cannot be reached (used by /readyz). */
  ping(): Promise<void>;
  /** Flushes what is pending and closes. */
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    message = `duplicate key in ${collection}`,
  ) {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}
