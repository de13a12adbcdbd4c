import type { Store } from '@kickstand/platform/store';
import { UserChangeKind, type UserChanged } from '@kickstand/proto';

interface DeactivatedUserDoc {
  _id: string;
  deactivatedAt: Date;
}

export interface DeactivatedUsers {
  /** Fills the in-memory set from the store (what earlier events said). */
  load(): Promise<void>;
  isDeactivated(userId: string): boolean;
  /** Idempotent: applying the same change twice leaves the same state. */
  apply(change: UserChanged): Promise<void>;
}

/**
 * The gateway's read model of deactivated users, fed by user.changed, so a deactivated user is
 * refused from the next request on instead of when the token expires. Checked on every request,
 * so it is answered from memory; the store keeps it across restarts.
 */
export function createDeactivatedUsers(store: Store): DeactivatedUsers {
  const collection = store.collection<DeactivatedUserDoc>('deactivated-users');
  const deactivated = new Set<string>();
  return {
    load: async () => {
      for (const doc of await collection.find({})) deactivated.add(doc._id);
    },
    isDeactivated: (userId) => deactivated.has(userId),
    apply: async (change) => {
      if (change.kind === UserChangeKind.DEACTIVATED || change.kind === UserChangeKind.DELETED) {
        await collection.updateOne(
          { _id: change.userId },
          {
            $set: {
              deactivatedAt: change.occurredAt ? new Date(Number(change.occurredAt.seconds) * 1000) : new Date(),
            },
          },
          { upsert: true },
        );
        deactivated.add(change.userId);
      } else if (change.kind === UserChangeKind.ACTIVATED) {
        await collection.deleteOne({ _id: change.userId });
        deactivated.delete(change.userId);
      }
    },
  };
}
