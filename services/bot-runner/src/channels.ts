import type { StreamState } from '@kickstand/chat-language';
import type { Collection, Document, Store } from '@kickstand/platform/store';
import type { PendingThanks } from './event-thanks';

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
  /** Kick events waiting to be thanked (event messages): a burst of one kind becomes one line. */
  pendingThanks?: PendingThanks[];
  /** The keys of the last events taken into a batch (at most 200): a second delivery is not thanked again. */
  thanksKeys?: string[];
  /** Counts every change of the batch: taking it out is a write on the number read. */
  thanksVersion?: number;
}

/**
 * A post of the bot's own (a timer's, an event message), decided and waiting to be published as
 * chat.send (the outbox).
 */
export interface TimerPost {
  id: string;
  /** The timer that posted; absent for an event message. */
  timerId?: string;
  /** chat.send's idempotency key; `timer:<id>` when absent. */
  idempotencyKey?: string;
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
  /**
   * Applies a livestream.status.updated unless a later one (by message time) was applied. True when
   * it changed live ↔ offline (not a repeat): then, in the same write, `announce(before)` (the
   * go-live or offline message, if any) goes into the outbox.
   */
  applyStatus(
    userId: string,
    broadcasterUserId: string,
    update: StatusUpdate,
    atMs: number,
    announce?: (before: ChannelDoc) => TimerPost | undefined,
  ): Promise<boolean>;
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
  /** Adds an event to the channel's batch unless its key was taken before; false for a repeat. */
  addThanks(userId: string, broadcasterUserId: string, event: PendingThanks): Promise<boolean>;
  /** Channels with events waiting, by user id after `afterUserId`, at most `limit`. */
  withPendingThanks(afterUserId: string, limit: number): Promise<ChannelDoc[]>;
  /**
   * Takes the batch `doc` holds out and puts its lines into the outbox, in one atomic write, if
   * the batch did not change since `doc` was read. Null when it did (read again).
   */
  takeThanks(doc: ChannelDoc, posts: TimerPost[]): Promise<ChannelDoc | null>;
}

/** The batch's version as read: absent on a channel that never had an event. */
const versionIs = (version: number | undefined) =>
  version === undefined ? { thanksVersion: { $exists: false } } : { thanksVersion: version };

/** How many event keys a channel remembers: far more than a burst within one window. */
export const rememberedThanksKeys = 200;

export function createChannelsRepository(store: Store): ChannelsRepository {
  const channels = store.collection<ChannelDoc>('channels');
  const ensure = (userId: string) =>
    channels.updateOne({ _id: userId }, { $setOnInsert: { ...fresh } }, { upsert: true });
  return {
    collection: channels,
    get: (userId) => channels.findOne({ _id: userId }),
    applyStatus: async (userId, broadcasterUserId, update, atMs, announce) => {
      await ensure(userId);
      const set = {
        broadcasterUserId,
        isLive: update.isLive,
        startedAtMs: update.isLive ? update.startedAtMs : null,
        statusAtMs: atMs,
        ...(update.title !== undefined ? { title: update.title } : {}),
      };
      // a write on the status read: a repeated delivery, or another instance applying the same
      // event first, finds the change made and announces nothing
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const before = await channels.findOne({ _id: userId });
        if (!before || before.statusAtMs > atMs) return false; // a later status was applied
        const changes = before.isLive !== update.isLive;
        const post = changes ? announce?.(before) : undefined;
        const written = await channels.updateOne(
          { _id: userId, statusAtMs: before.statusAtMs, isLive: before.isLive },
          { $set: set, ...(post ? { $push: { outbox: post } } : {}) },
        );
        if (written.matchedCount > 0) return changes;
      }
      return false;
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
    addThanks: async (userId, broadcasterUserId, event) => {
      await ensure(userId);
      // read, then write on the batch's version: "the keys do not hold this one" cannot be a filter
      // (the embedded store reads $ne / $nin on an array as "some element differs")
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const doc = await channels.findOne({ _id: userId });
        if (!doc || (doc.thanksKeys ?? []).includes(event.key)) return false;
        const added = await channels.updateOne(
          { _id: userId, ...versionIs(doc.thanksVersion) },
          {
            $set: { broadcasterUserId },
            $push: { pendingThanks: event, thanksKeys: event.key },
            $inc: { thanksVersion: 1 },
          },
        );
        if (added.matchedCount > 0) return true;
      }
      throw new Error(`the event batch of ${userId} kept changing; the event is retried`);
    },
    withPendingThanks: (afterUserId, limit) =>
      channels.find({ _id: { $gt: afterUserId }, 'pendingThanks.0': { $exists: true } }, { sort: { _id: 1 }, limit }),
    takeThanks: (doc, posts) =>
      channels.findOneAndUpdate(
        { _id: doc._id, ...versionIs(doc.thanksVersion) },
        {
          $set: { pendingThanks: [], thanksKeys: (doc.thanksKeys ?? []).slice(-rememberedThanksKeys) },
          $inc: { thanksVersion: 1 },
          ...(posts.length > 0 ? { $push: { outbox: { $each: posts } } } : {}),
        },
        { returnDocument: 'after' },
      ),
  };
}
