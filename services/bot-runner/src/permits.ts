import { permitSeconds, type ModerationFilters } from '@kickstand/api-contract';
import type { Clock } from '@kickstand/platform/clock';
import type { Document, Store } from '@kickstand/platform/store';
import type { ChatLine } from './dispatch';
import { judge, type Verdict } from './filters';

/**
 * `$permit <user>` grants (moderation filters: the viewer may post one link within 60 s), kept in
 * the store so that a restart or a channel moving to another instance keeps them. One document
 * per channel and viewer; `grantedAt` carries a TTL index, so the collection holds at most the
 * permits of the last minute (plus one sweep, 30 s) and never grows.
 */
export interface PermitDoc extends Document {
  /** `<broadcaster user id>:<username in lower case>`: a new permit replaces the viewer's older one. */
  _id: string;
  broadcasterUserId: string;
  /** In lower case (Kick usernames are case-insensitive, `$permit @Viewer` = `viewer`). */
  username: string;
  grantedAt: Date;
}

export const permitCollection = 'moderation-permits';

export interface Permits {
  grant(broadcasterUserId: string, username: string): Promise<void>;
  /** Whether the viewer holds a permit granted less than 60 s ago. */
  holds(broadcasterUserId: string, username: string): Promise<boolean>;
  /** Spends the permit (a link passed on it); false when there was none left to spend. */
  spend(broadcasterUserId: string, username: string): Promise<boolean>;
}

const permitKey = (broadcasterUserId: string, username: string): string =>
  `${broadcasterUserId}:${username.toLowerCase()}`;

/** The TTL index: expired permits are swept from the store (reads never return them anyway). */
export async function createPermitIndexes(store: Store): Promise<void> {
  await store
    .collection<PermitDoc>(permitCollection)
    .createIndex({ fields: { grantedAt: 1 }, expireAfterSeconds: permitSeconds });
}

export function createPermits(store: Store, clock: Clock): Permits {
  const permits = store.collection<PermitDoc>(permitCollection);
  // valid while grantedAt + 60 s lies ahead: said here rather than left to the sweep, which runs every 30 s
  const live = (broadcasterUserId: string, username: string) => ({
    _id: permitKey(broadcasterUserId, username),
    grantedAt: { $gt: new Date(clock.now().getTime() - permitSeconds * 1000) },
  });
  return {
    grant: async (broadcasterUserId, username) => {
      const doc = { broadcasterUserId, username: username.toLowerCase(), grantedAt: clock.now() };
      await permits.updateOne({ _id: permitKey(broadcasterUserId, username) }, { $set: doc }, { upsert: true });
    },
    holds: async (broadcasterUserId, username) => (await permits.count(live(broadcasterUserId, username))) > 0,
    spend: async (broadcasterUserId, username) => (await permits.deleteOne(live(broadcasterUserId, username))) > 0,
  };
}

/**
 * judge() with the sender's permit read from the store only for a line the links filter would
 * catch without one: one store read for such a line, none for every other line.
 */
export async function judgeWithPermit(
  permits: Pick<Permits, 'holds'>,
  line: ChatLine,
  filters: ModerationFilters,
  earlierSameAtMs: readonly number[],
): Promise<Verdict> {
  const verdict = judge(line, filters, { hasPermit: false, earlierSameAtMs });
  if (verdict.kind !== 'caught' || verdict.filter !== 'links') return verdict;
  if (!(await permits.holds(line.broadcasterUserId, line.senderUsername))) return verdict;
  return judge(line, filters, { hasPermit: true, earlierSameAtMs });
}
