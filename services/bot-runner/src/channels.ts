import type { StreamState } from '@kickstand/chat-language';
import type { Collection, Document, Store } from '@kickstand/platform/store';

/**
 * One document per streamer (`_id` = user id): their channel's stream as the livestream events
 * told it (for `{uptime}`, `{game}`, `{title}` and for timers, which post only while live), and
 * the timers' schedule (chat lines since the last post, which timer posted last, the posts
 * waiting in the outbox). In the store, so it survives restarts and every instance sees it.
 */
export interface ChannelDoc extends Document {
  /** The channel the events were about ('' before the first event). */
  broadcasterUserId: string;
  isLive: boolean;
  startedAtMs: number | null;
  title: string;
  game: string;
  /** Kick does not order deliveries: the message timestamp of the status / metadata applied last. */
  statusAtMs: number;
  metadataAtMs: number;
  /** How many of the streamer's timers are enabled: the scheduler looks only at channels with some. */
  enabledTimers: number;
  /** Chat lines (not the bot's) since the last timer post. */
  lines: number;
  lastPostAtMs: number | null;
  /** The timer that posted last: the rotation goes on with the one after it. */
  lastTimer: { createdAtMs: number; id: string } | null;
  /** How many timer posts were decided: the claim of the next one is a write on this number. */
  posts: number;
  outbox: TimerPost[];
}

/** A timer post, decided and waiting to be published as chat.send (the outbox). */
export interface TimerPost {
  id: string;
  timerId: string;
  broadcasterUserId: string;
  content: string;
  occurredAt: Date;
}

const fresh: Omit<ChannelDoc, '_id'> = {
  broadcasterUserId: '',
  isLive: false,
  startedAtMs: null,
  title: '',
  game: '',
  statusAtMs: 0,
  metadataAtMs: 0,
  enabledTimers: 0,
  lines: 0,
  lastPostAtMs: null,
  lastTimer: null,
  posts: 0,
  outbox: [],
};

export interface StatusUpdate {
  isLive: boolean;
  startedAtMs: number | null;
  /** Undefined when the event did not carry one. */
  title: string | undefined;
}

export interface MetadataUpdate {
  title: string | undefined;
  game: string | undefined;
}

export interface ChannelsRepository {
  collection: Collection<ChannelDoc>;
  get(userId: string): Promise<ChannelDoc | null>;
  /** Applies a livestream.status.updated unless a later one (by message time) was applied. */
  applyStatus(userId: string, broadcasterUserId: string, update: StatusUpdate, atMs: number): Promise<void>;
  applyMetadata(userId: string, broadcasterUserId: string, update: MetadataUpdate, atMs: number): Promise<void>;
  /** What the response variables show of this channel; undefined when no event about it arrived. */
  stream(userId: string, broadcasterUserId: string): Promise<StreamState | undefined>;
  /** Counts chat lines toward the timers (only while live: a line before the stream does not count). */
  addLines(userId: string, lines: number): Promise<void>;
  setEnabledTimers(userId: string, enabledTimers: number): Promise<void>;
  /** Live channels with enabled timers, by user id after `afterUserId`, at most `limit`. */
  liveWithTimers(afterUserId: string, limit: number): Promise<ChannelDoc[]>;
  /**
   * Decides the next post if nobody decided one since `doc` was read (the `posts` it read):
   * the schedule moves on and the post goes into the outbox, in one atomic write. Null when
   * another writer was first.
   */
  claimPost(
    doc: ChannelDoc,
    post: TimerPost,
    timer: { createdAtMs: number; id: string },
    atMs: number,
  ): Promise<ChannelDoc | null>;
}

export function createChannelsRepository(store: Store): ChannelsRepository {
  const channels = store.collection<ChannelDoc>('channels');
  const ensure = (userId: string) =>
    channels.updateOne({ _id: userId }, { $setOnInsert: { ...fresh } }, { upsert: true });
  return {
    collection: channels,
    get: (userId) => channels.findOne({ _id: userId }),
    applyStatus: async (userId, broadcasterUserId, update, atMs) => {
      await ensure(userId);
      await channels.updateOne(
        { _id: userId, statusAtMs: { $lte: atMs } },
        {
          $set: {
            broadcasterUserId,
            isLive: update.isLive,
            startedAtMs: update.isLive ? update.startedAtMs : null,
            statusAtMs: atMs,
            ...(update.title !== undefined ? { title: update.title } : {}),
          },
        },
      );
    },
    applyMetadata: async (userId, broadcasterUserId, update, atMs) => {
      await ensure(userId);
      await channels.updateOne(
        { _id: userId, metadataAtMs: { $lte: atMs } },
        {
          $set: {
            broadcasterUserId,
            metadataAtMs: atMs,
            ...(update.title !== undefined ? { title: update.title } : {}),
            ...(update.game !== undefined ? { game: update.game } : {}),
          },
        },
      );
    },
    stream: async (userId, broadcasterUserId) => {
      const doc = await channels.findOne({ _id: userId });
      if (!doc || doc.broadcasterUserId !== broadcasterUserId) return undefined;
      return { isLive: doc.isLive, startedAtMs: doc.startedAtMs, title: doc.title, game: doc.game };
    },
    addLines: async (userId, lines) => {
      await channels.updateOne({ _id: userId, isLive: true }, { $inc: { lines } });
    },
    setEnabledTimers: async (userId, enabledTimers) => {
      await ensure(userId);
      await channels.updateOne({ _id: userId }, { $set: { enabledTimers } });
    },
    liveWithTimers: (afterUserId, limit) =>
      channels.find(
        { _id: { $gt: afterUserId }, isLive: true, enabledTimers: { $gt: 0 } },
        { sort: { _id: 1 }, limit },
      ),
    claimPost: (doc, post, timer, atMs) =>
      channels.findOneAndUpdate(
        { _id: doc._id, posts: doc.posts },
        {
          $set: { lastPostAtMs: atMs, lastTimer: timer, lines: 0 },
          $inc: { posts: 1 },
          $push: { outbox: post },
        },
        { returnDocument: 'after' },
      ),
  };
}
