import type { Clock } from '@kickstand/platform/clock';
import { DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';

/**
 * A lease: one instance at a time does a job (the timer scheduler), the others stand by. It is one
 * document (owner + expiry), taken with one atomic write: by its owner (a renewal), or by anyone
 * once it expired (the owner died or hangs). Renewed on every use, so it passes to another
 * instance only after the owner stopped renewing for `ttlMs`.
 */
interface LeaseDoc extends Document {
  owner: string;
  expiresAtMs: number;
}

export interface Lease {
  /** True when this instance holds the lease (now renewed for ttlMs). */
  acquire(): Promise<boolean>;
  /** Gives it up (a clean stop), so another instance takes over at its next try. */
  release(): Promise<void>;
}

export function createLease(options: {
  store: Store;
  name: string;
  owner: string;
  ttlMs: number;
  clock: Clock;
}): Lease {
  const leases = options.store.collection<LeaseDoc>('leases');
  const { name: _id, owner, ttlMs, clock } = options;
  return {
    async acquire() {
      const nowMs = clock.now().getTime();
      const expiresAtMs = nowMs + ttlMs;
      const renewed = await leases.findOneAndUpdate(
        { _id, $or: [{ owner }, { expiresAtMs: { $lte: nowMs } }] },
        { $set: { owner, expiresAtMs } },
      );
      if (renewed) return true;
      try {
        await leases.insertOne({ _id, owner, expiresAtMs });
        return true;
      } catch (error) {
        if (error instanceof DuplicateKeyError) return false;
        throw error;
      }
    },
    async release() {
      await leases.deleteOne({ _id, owner });
    },
  };
}
