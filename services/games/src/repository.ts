import { DuplicateKeyError, type Collection, type Document, type Store } from '@kickstand/platform/store';
import type { GameState } from './games/one-at-a-time';
import type { OutboxEntry } from './games/outbox';

/**
 * One document per channel (its `_id` is the Kick broadcaster id): the game that runs there (or
 * the last one, ended), the outbox of what it still has to say, and the scheduler's lease. State
 * and outbox change in one atomic, version-guarded write (STYLE habit 7), so a restart resumes
 * exactly where the store says and no announcement is lost or made twice.
 */
export interface ChannelDoc extends Document {
  ownerUserId: string;
  /** Bumped by every game write; a write names the version it read (optimistic concurrency). */
  version: number;
  game: GameState | null;
  /** When the scheduler must next look (the next timed announcement or deadline); null when none. */
  nextDueAt: Date | null;
  /** What is still to be published, in order; the relay publishes each entry, then pulls it. */
  outbox: OutboxEntry[];
  /** The last chat messages that changed this document: a replayed message is not played twice. */
  recentMessageIds: string[];
  /** The instance that ticks this channel's timers until leaseUntil. */
  leaseOwner: string | null;
  leaseUntil: Date | null;
}

/** The streamer's games settings; `_id` is the Kickstand user id. */
export interface SettingsDoc extends Document {
  /** 32-bit Steam account id (what OpenDota uses), or null when not set. */
  steamAccountId: number | null;
  updatedAt: Date;
}

/** Read model of bot.status; `_id` is the Kickstand user id. Only running bots play games. */
export interface BotDoc extends Document {
  isRunning: boolean;
  broadcasterUserId: string;
  /** occurred_at of the status applied, so an older replay does not overwrite a newer one. */
  occurredAt: Date;
}

export interface ChannelWrite {
  game: GameState | null;
  nextDueAt: Date | null;
  recentMessageIds: string[];
}

export const recentMessageIdsKept = 100;

export interface GamesRepository {
  createIndexes(): Promise<void>;
  findChannel(broadcasterUserId: string): Promise<ChannelDoc | null>;
  /** The channel's document, created empty (version 0) the first time. */
  ensureChannel(broadcasterUserId: string, ownerUserId: string): Promise<ChannelDoc>;
  /**
   * Writes the new game state and appends the outbox entries in one atomic update, only if the
   * document is still at `expectedVersion`. Null when someone else wrote first (read again, retry).
   */
  saveChannel(
    broadcasterUserId: string,
    expectedVersion: number,
    write: ChannelWrite,
    outbox: readonly OutboxEntry[],
  ): Promise<ChannelDoc | null>;
  /** The channels, for the platform's outbox relay (what a game still has to say waits in `outbox`). */
  outboxCollection: Collection<ChannelDoc>;
  /** Channels with a timer due by `now` or an outbox left to relay. */
  findDueChannels(now: Date, limit: number): Promise<ChannelDoc[]>;
  /**
   * Takes or renews the channel's scheduler lease for `owner` until `until`: it succeeds when the
   * lease is free, expired, or already this owner's. One atomic findOneAndUpdate.
   */
  acquireLease(broadcasterUserId: string, owner: string, now: Date, until: Date): Promise<boolean>;
  findSettings(userId: string): Promise<SettingsDoc | null>;
  saveSettings(userId: string, steamAccountId: number | null, now: Date): Promise<SettingsDoc>;
  isBotRunning(userId: string): Promise<boolean>;
  /** Applies a bot.status unless a newer one was applied already. */
  recordBotStatus(
    userId: string,
    status: { isRunning: boolean; broadcasterUserId: string; occurredAt: Date },
  ): Promise<void>;
}

export function createGamesRepository(store: Store): GamesRepository {
  const channels = store.collection<ChannelDoc>('channels');
  const settings = store.collection<SettingsDoc>('settings');
  const bots = store.collection<BotDoc>('bots');

  return {
    createIndexes: async () => {
      await channels.createIndex({ fields: { nextDueAt: 1 } });
    },

    findChannel: (broadcasterUserId) => channels.findOne({ _id: broadcasterUserId }),

    ensureChannel: async (broadcasterUserId, ownerUserId) => {
      const existing = await channels.findOne({ _id: broadcasterUserId });
      if (existing) return existing;
      const created = await channels.findOneAndUpdate(
        { _id: broadcasterUserId },
        {
          $setOnInsert: {
            ownerUserId,
            version: 0,
            game: null,
            nextDueAt: null,
            outbox: [],
            recentMessageIds: [],
            leaseOwner: null,
            leaseUntil: null,
          },
        },
        { upsert: true },
      );
      if (!created) throw new Error(`could not create the games document of channel ${broadcasterUserId}`);
      return created;
    },

    saveChannel: (broadcasterUserId, expectedVersion, write, outbox) =>
      channels.findOneAndUpdate(
        { _id: broadcasterUserId, version: expectedVersion },
        {
          $set: {
            game: write.game,
            nextDueAt: write.nextDueAt,
            recentMessageIds: write.recentMessageIds.slice(-recentMessageIdsKept),
            version: expectedVersion + 1,
          },
          ...(outbox.length > 0 ? { $push: { outbox: { $each: [...outbox] } } } : {}),
        },
      ),

    outboxCollection: channels,

    findDueChannels: (now, limit) =>
      channels.find(
        {
          // the lower bound keeps null out: the embedded adapter (NeDB) sorts null below every date
          $or: [{ nextDueAt: { $gt: new Date(0), $lte: now } }, { 'outbox.0': { $exists: true } }],
        },
        { limit },
      ),

    acquireLease: async (broadcasterUserId, owner, now, until) => {
      const leased = await channels.findOneAndUpdate(
        { _id: broadcasterUserId, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }, { leaseOwner: owner }] },
        { $set: { leaseOwner: owner, leaseUntil: until } },
      );
      return leased !== null;
    },

    findSettings: (userId) => settings.findOne({ _id: userId }),

    saveSettings: async (userId, steamAccountId, now) => {
      const saved = await settings.findOneAndUpdate(
        { _id: userId },
        { $set: { steamAccountId, updatedAt: now } },
        { upsert: true },
      );
      if (!saved) throw new Error(`could not save the games settings of user ${userId}`);
      return saved;
    },

    isBotRunning: async (userId) => (await bots.findOne({ _id: userId }))?.isRunning === true,

    recordBotStatus: async (userId, status) => {
      try {
        await bots.updateOne(
          { _id: userId, occurredAt: { $lte: status.occurredAt } },
          { $set: { ...status } },
          { upsert: true },
        );
      } catch (error) {
        // the document exists with a newer status: this one is older, so it is dropped
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    },
  };
}
