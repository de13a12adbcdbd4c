import type { Clock } from '@kickstand/platform/clock';
import { DuplicateKeyError, type Collection } from '@kickstand/platform/store';
import { RateLimiterRes } from 'rate-limiter-flexible';
import RateLimiterStoreAbstract from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract';

/** One limiter key: its points and when they are forgotten (a TTL index on `expiresAt` deletes it). */
export interface RateLimitDoc {
  _id: string;
  points: number;
  expiresAt: Date;
}

export interface StoreRateLimiterOptions {
  collection: Collection<RateLimitDoc>;
  clock: Clock;
  /** Keeps this limiter's keys apart from the others' in the same collection. */
  keyPrefix: string;
  /** Points allowed per key and duration; `consume` rejects beyond. */
  points: number;
  /** Seconds from a key's first point until it is forgotten (a fixed window). */
  duration: number;
}

/**
 * rate-limiter-flexible over Kickstand's store port, so every limiter works the same in both
 * modes: the embedded store in single-machine mode, MongoDB in distributed mode, where the
 * counters are shared by every auth instance (a per-instance memory limiter would let an attacker
 * multiply the limit by the number of instances, or force dividing it). The library's own
 * `RateLimiterMongo` needs a mongoose/driver client, and ours is a port, so this is the small
 * adapter the library documents for custom stores (`_upsert`, `_get`, `_delete`,
 * `_getRateLimiterRes`), built on `findOneAndUpdate` with `$inc` (atomic on both adapters).
 * Time comes from the injected clock: both when a key expires and how long is left.
 */
export class StoreRateLimiter extends RateLimiterStoreAbstract {
  private readonly collection: Collection<RateLimitDoc>;
  private readonly clock: Clock;

  constructor(options: StoreRateLimiterOptions) {
    const { collection, clock, ...limits } = options;
    super({ ...limits, storeClient: collection });
    this.collection = collection;
    this.clock = clock;
  }

  /** Adds `points` to the key (or sets them with a new expiry when `forceExpire`); returns the document after. */
  async _upsert(rlKey: string, points: number, msDuration: number, forceExpire = false): Promise<RateLimitDoc> {
    // the store keeps a document while `expiresAt` is not in the past, so its last live instant is
    // written: a client that waits exactly the Retry-After it was given finds the key gone
    const expiresAt = new Date(this.clock.now().getTime() + msDuration - 1);
    const write = () =>
      this.collection.findOneAndUpdate(
        { _id: rlKey },
        forceExpire ? { $set: { points, expiresAt } } : { $inc: { points }, $setOnInsert: { expiresAt } },
        { upsert: true, returnDocument: 'after' },
      );
    let doc: RateLimitDoc | null;
    try {
      doc = await write();
    } catch (error) {
      // two instances created the same key at once: the loser's write now finds it
      if (!(error instanceof DuplicateKeyError)) throw error;
      doc = await write();
    }
    if (!doc) throw new Error(`rate limit key ${rlKey} was not written`);
    return doc;
  }

  _get(rlKey: string): Promise<RateLimitDoc | null> {
    return this.collection.findOne({ _id: rlKey });
  }

  async _delete(rlKey: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: rlKey })) > 0;
  }

  _getRateLimiterRes(_rlKey: string, changedPoints: number, doc: RateLimitDoc): RateLimiterRes {
    const msBeforeNext = Math.max(new Date(doc.expiresAt).getTime() + 1 - this.clock.now().getTime(), 0);
    return new RateLimiterRes(
      Math.max(this.points - doc.points, 0),
      msBeforeNext,
      doc.points,
      doc.points === changedPoints,
    );
  }
}
