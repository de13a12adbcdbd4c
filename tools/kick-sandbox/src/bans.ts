import type { Clock } from '@kickstand/platform/clock';
import type { Filter } from '@kickstand/platform/store';
import type { KickUsers } from './kick-users';
import type { Notifier } from './notifier';
import { moderationBannedPayload, type PayloadParts } from './payloads';
import type { BanDoc, DeliveryDoc, KickUserDoc, Repository } from './repository';
import { channelNotFound, RuleError, userNotFound } from './rules';
import type { Emitter } from './webhooks/emitter';

export interface BanInput {
  broadcasterUserId: number;
  userId: number;
  moderator: KickUserDoc;
  reason: string;
  /** Minutes; absent = permanent. */
  durationMinutes?: number;
  source: BanDoc['source'];
}

export interface Bans {
  /** Records the ban (or timeout) and emits moderation.banned. */
  ban(input: BanInput): Promise<{ ban: BanDoc; deliveries: DeliveryDoc[] }>;
  /** Lifts active bans; Kick has no unban event. Returns how many were lifted. */
  unban(broadcasterUserId: number, userId: number): Promise<number>;
  isBanned(broadcasterUserId: number, userId: number): Promise<boolean>;
  list(filter: { broadcasterUserId?: number; afterSeq?: number }): Promise<BanDoc[]>;
}

/** Only the broadcaster and the channel's moderators may moderate it. */
export function assertCanModerate(channelOwner: KickUserDoc, userId: number): void {
  if (channelOwner.userId !== userId && !channelOwner.channel.moderatorUserIds.includes(userId)) {
    throw new RuleError('not-moderator', `User ${userId} is not a moderator of ${channelOwner.username}`);
  }
}

export function createBans(deps: {
  repo: Repository;
  users: KickUsers;
  emitter: Emitter;
  parts: PayloadParts;
  clock: Clock;
  notifier: Notifier;
}): Bans {
  const { repo, users, emitter, parts, clock, notifier } = deps;

  const activeFilter = (broadcasterUserId: number, userId: number): Filter => ({
    broadcasterUserId,
    userId,
    liftedAt: null,
    $or: [{ expiresAt: null }, { expiresAt: { $gt: clock.now() } }],
  });

  return {
    async ban(input) {
      const broadcaster = await users.byId(input.broadcasterUserId);
      if (!broadcaster) throw channelNotFound(input.broadcasterUserId);
      const banned = await users.byId(input.userId);
      if (!banned) throw userNotFound(input.userId);
      const now = clock.now();
      const ban = await repo.bans.insertOne({
        seq: repo.nextSeq('bans'),
        broadcasterUserId: broadcaster.userId,
        userId: banned.userId,
        moderatorUserId: input.moderator.userId,
        reason: input.reason,
        source: input.source,
        createdAt: now,
        expiresAt:
          input.durationMinutes === undefined ? null : new Date(now.getTime() + input.durationMinutes * 60_000),
        liftedAt: null,
      });
      notifier.notify('bans');
      const deliveries = await emitter.emit({
        type: 'moderation.banned',
        broadcasterUserId: broadcaster.userId,
        payload: moderationBannedPayload({
          broadcaster: parts.user(broadcaster),
          moderator: parts.user(input.moderator),
          bannedUser: parts.user(banned),
          reason: input.reason,
          createdAt: now,
          expiresAt: ban.expiresAt,
        }),
      });
      return { ban, deliveries };
    },

    async unban(broadcasterUserId, userId) {
      const result = await repo.bans.updateMany(activeFilter(broadcasterUserId, userId), {
        $set: { liftedAt: clock.now() },
      });
      if (result.matchedCount > 0) notifier.notify('bans');
      return result.matchedCount;
    },

    async isBanned(broadcasterUserId, userId) {
      return (await repo.bans.count(activeFilter(broadcasterUserId, userId))) > 0;
    },

    list({ broadcasterUserId, afterSeq }) {
      const filter: Filter = {};
      if (broadcasterUserId !== undefined) filter.broadcasterUserId = broadcasterUserId;
      if (afterSeq !== undefined) filter.seq = { $gt: afterSeq };
      return repo.bans.find(filter, { sort: { seq: 1 } });
    },
  };
}
