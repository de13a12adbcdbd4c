import { UserChangeKind, type UserChanged } from '@kickstand/proto';
import type { RealtimeRepository } from './repository';

export interface DeactivatedUsers {
  /** Fills the in-memory set from the store (what earlier events said). */
  load(): Promise<void>;
  isDeactivated(userId: string): boolean;
  /** Applies a user.changed; idempotent. */
  apply(change: UserChanged, now: Date): Promise<void>;
}

/** Deactivated or deleted: the user's sockets go, and new ones are refused. */
export function isShutOut(change: UserChanged): boolean {
  return change.kind === UserChangeKind.DEACTIVATED || change.kind === UserChangeKind.DELETED;
}

/**
 * Realtime's read model of deactivated users, fed by user.changed, so a deactivated user is
 * refused at the handshake instead of when their token expires. The handshake asks it from
 * memory; the store keeps it across restarts. Every instance reads every user.changed and writes
 * the same documents, which is idempotent.
 */
export function createDeactivatedUsers(repo: RealtimeRepository): DeactivatedUsers {
  const deactivated = new Set<string>();
  return {
    load: async () => {
      for (const userId of await repo.deactivatedUserIds()) deactivated.add(userId);
    },
    isDeactivated: (userId) => deactivated.has(userId),
    apply: async (change, now) => {
      if (change.userId === '') return; // proto3 cannot require it; nothing to act on without it
      if (isShutOut(change)) {
        // In memory first: new sockets are refused even while the store write is retried.
        deactivated.add(change.userId);
        await repo.markDeactivated(change.userId, now);
      } else if (change.kind === UserChangeKind.ACTIVATED) {
        await repo.markActive(change.userId);
        deactivated.delete(change.userId);
      }
    },
  };
}
