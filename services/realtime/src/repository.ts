import type { ChannelEventPayload, ChatMessagePayload } from '@kickstand/platform/socket-events';
import { DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';

/**
 * One line of one streamer's channel: a chat message (`payload`) or a channel event (`event`).
 * `_id` is the chat message id (`event:<Kick message id>` for events), so every realtime instance
 * writing the same line writes the same document (an idempotent upsert).
 */
export type ChatLineDoc = Document & {
  userId: string;
  /** The line's own time: the log's order. */
  at: Date;
} & ({ payload: ChatMessagePayload; event?: undefined } | { event: ChannelEventPayload; payload?: undefined });

export interface RealtimeRepository {
  createIndexes(): Promise<void>;
  /** Inserts the line unless it is already there (another instance, or a replay, wrote it). */
  saveLine(line: ChatLineDoc): Promise<void>;
  /** Deletes a user's lines beyond the newest `keep`. */
  trimLines(userId: string, keep: number): Promise<void>;
  /** The newest `limit` lines, oldest first. */
  recentLines(userId: string, limit: number): Promise<ChatLineDoc[]>;
}

const newestFirst = { at: -1, _id: -1 } as const;

export function createRealtimeRepository(store: Store): RealtimeRepository {
  const lines = store.collection<ChatLineDoc>('chat-lines');
  return {
    createIndexes: () => lines.createIndex({ fields: { userId: 1, at: -1 } }),
    saveLine: async ({ _id, userId, at, payload, event }) => {
      try {
        // an insert, not an upsert: the store sends the inserts of a moment together (one round trip)
        await lines.insertOne(payload ? { _id, userId, at, payload } : { _id, userId, at, event });
      } catch (error) {
        // Another instance, or a replay, wrote this line already.
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    },
    trimLines: async (userId, keep) => {
      const overflow = await lines.find({ userId }, { sort: newestFirst, skip: keep });
      if (overflow.length > 0) await lines.deleteMany({ _id: { $in: overflow.map((line) => line._id) } });
    },
    recentLines: async (userId, limit) => (await lines.find({ userId }, { sort: newestFirst, limit })).reverse(),
  };
}
