import { UserChangeKind, UserRole, type UserChanged } from '@kickstand/proto';
import { instanceGroup, type KickstandBus, type Subscription } from '../bus';
import { unauthorized } from '../errors';
import type { Store } from '../store';
import type { Identity, Role } from './tokens';

export const deactivatedMessage = 'Your account has been deactivated';
export const sessionEndedMessage = 'Your session has ended: please sign in again';

/** What user.changed last said about a user: enough to judge a token without asking auth. */
interface UserAccessDoc {
  _id: string;
  /** False once deactivated or deleted. */
  active: boolean;
  /** Deleted for good: a replayed CREATED or ACTIVATED does not bring the user back. */
  deleted: boolean;
  /** Null when the event did not say (then the token's role is not compared). */
  role: Role | null;
  tokenVersion: number;
}

/** What the token check needs from a verified token besides the identity. */
export interface TokenFacts {
  identity: Identity;
  /** The `ver` claim (0 when absent: tokens issued before versions existed). */
  tokenVersion: number;
}

export interface UserAccess {
  /** Fills the in-memory map from the store (what earlier events said). */
  load(): Promise<void>;
  /** Applies a user.changed snapshot; idempotent. */
  apply(change: UserChanged): Promise<void>;
  /** Deactivated or deleted. */
  isShutOut(userId: string): boolean;
  /** Throws 401 when the user is shut out, or the token predates the last logout or role change. */
  check(facts: TokenFacts): void;
}

const roleOf: Partial<Record<UserRole, Role>> = {
  [UserRole.USER]: 'USER',
  [UserRole.SUPER_ADMIN]: 'SUPER_ADMIN',
};

/** The kind decides where it is plain; otherwise the snapshot's is_active. */
function isActiveAfter(change: UserChanged): boolean {
  switch (change.kind) {
    case UserChangeKind.DEACTIVATED:
    case UserChangeKind.DELETED:
      return false;
    case UserChangeKind.CREATED:
    case UserChangeKind.ACTIVATED:
      return true;
    default:
      return change.isActive;
  }
}

// The gateway's and realtime's read model before this one: its documents are deactivated users.
const legacyCollection = 'deactivated-users';

/**
 * Every service's read model of who may still use a token, fed by user.changed, so a deactivated
 * user, a signed-out token or a token naming an old role is refused on every port within moments
 * of the change instead of when the token expires. Asked on every request, so it answers from
 * memory; the service's store keeps it across restarts (an instance group starts at the end of
 * the topic). Users it has never heard of are judged by the token alone.
 */
export function createUserAccess(store: Store): UserAccess {
  const collection = store.collection<UserAccessDoc>('user-access');
  const users = new Map<string, Omit<UserAccessDoc, '_id'>>();
  return {
    load: async () => {
      for (const doc of await store.collection<{ _id: string }>(legacyCollection).find({})) {
        users.set(doc._id, { active: false, deleted: false, role: null, tokenVersion: 0 });
      }
      for (const { _id, ...state } of await collection.find({})) users.set(_id, state);
    },
    apply: async (change) => {
      if (change.userId === '') return; // proto3 cannot require it; nothing to act on without it
      const known = users.get(change.userId);
      const deleted = known?.deleted === true || change.kind === UserChangeKind.DELETED;
      const state = {
        active: !deleted && isActiveAfter(change),
        deleted,
        role: roleOf[change.role] ?? null,
        // a version never goes down, whatever order a redelivery comes in
        tokenVersion: Math.max(known?.tokenVersion ?? 0, change.tokenVersion),
      };
      // In memory first: tokens are refused even while the store write is retried.
      users.set(change.userId, state);
      await collection.updateOne({ _id: change.userId }, { $set: state }, { upsert: true });
    },
    isShutOut: (userId) => users.get(userId)?.active === false,
    check: ({ identity, tokenVersion }) => {
      const known = users.get(identity.userId);
      if (!known) return;
      // 401 rather than 403: the web app then drops the stored token and shows the sign-in again.
      if (!known.active) throw unauthorized(deactivatedMessage);
      const roleChanged = known.role !== null && identity.role !== known.role;
      if (tokenVersion < known.tokenVersion || roleChanged) throw unauthorized(sessionEndedMessage);
    },
  };
}

/**
 * The read model's group: one per instance, since every instance keeps its own copy in memory and
 * must read every event. Its own name (`<service>.instance.<id>.user-access`), apart from the
 * service's own per-instance group (realtime's reads user.changed too): two readers of one topic in
 * one group would each get only part of it. Dead letters go to `<service>.instances.dlq`.
 */
export const userAccessGroup = (service: string, instanceId: string): string =>
  instanceGroup(service, `${instanceId}.user-access`);

/** Feeds the read model from user.changed. */
export function subscribeUserAccess(
  bus: KickstandBus,
  service: string,
  instanceId: string,
  access: UserAccess,
): Promise<Subscription> {
  return bus.subscribe('user.changed', userAccessGroup(service, instanceId), (change) => access.apply(change));
}
