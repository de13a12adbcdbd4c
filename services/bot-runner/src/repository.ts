import { DuplicateKeyError, type Collection, type Document, type Store } from '@kickstand/platform/store';
import type { BotState, BotStatusSnapshot } from './bots';

/**
 * A message waiting to be published (the outbox). It is written in the same atomic update as the
 * state change it announces, published right after, and pulled once the bus took it; a crash or a
 * bus outage in between leaves it here for the next attempt (runner.ts), so none is lost.
 */
export type OutboxEntry = { id: string; occurredAt: Date } & (
  | { topic: 'bot.status'; status: BotStatusSnapshot }
  | { topic: 'bot.control'; action: 'START' | 'STOP'; broadcasterUserId: string; requestId: string }
  | {
      topic: 'audit.recorded';
      action: 'bot.enabled' | 'bot.disabled';
      actorUserId: string;
      actorUsername: string;
      targetUsername: string;
      details: Record<string, string>;
    }
);

/**
 * One document per user (`_id` is the user id): the bot's whole state, the user's custom commands
 * (the read model of command.changed), and the outbox. `version` grows by one with every change,
 * so a write only succeeds on the version it read (another instance may have written meanwhile).
 */
export interface BotDoc extends Document, Omit<BotState, 'resumeOnActivation' | 'lostSubscription'> {
  resumeOnActivation?: boolean;
  lostSubscription?: BotState['lostSubscription'];
  version: number;
  outbox: OutboxEntry[];
  updatedAt: Date;
}

/** How often each user's command has run (`{count}`); `_id` is `<user id>:<command key>`. */
export interface CommandCountDoc extends Document {
  count: number;
}

export interface BotsRepository {
  get(userId: string): Promise<BotDoc | null>;
  /** Every bot, to load the in-memory read model at start. */
  all(): Promise<BotDoc[]>;
  /** The first document of a user; null when another writer created it first. */
  insert(userId: string, state: BotState, outbox: OutboxEntry[], at: Date): Promise<BotDoc | null>;
  /** Writes the next state if the document is still at `version`; null when it is not. */
  replace(userId: string, version: number, state: BotState, outbox: OutboxEntry[], at: Date): Promise<BotDoc | null>;
  /** The bots, for the platform's outbox relay (the messages a change causes wait in `outbox`). */
  outboxCollection: Collection<BotDoc>;
  /** Atomically adds one run and returns the new count (1 for the first run). */
  incrementCount(userId: string, key: string): Promise<number>;
  resetCount(userId: string, key: string): Promise<void>;
  /** A renamed command keeps its count: the count under `fromKey`, if any, goes to `toKey`. */
  moveCount(userId: string, fromKey: string, toKey: string): Promise<void>;
}

export function createBotsRepository(store: Store): BotsRepository {
  const bots = store.collection<BotDoc>('bots');
  const counts = store.collection<CommandCountDoc>('command-counts');
  const countId = (userId: string, key: string) => `${userId}:${key}`;
  return {
    get: (userId) => bots.findOne({ _id: userId }),
    all: () => bots.find({}),
    insert: async (userId, state, outbox, at) => {
      try {
        return await bots.insertOne({ _id: userId, ...state, version: 1, outbox, updatedAt: at });
      } catch (error) {
        if (error instanceof DuplicateKeyError) return null;
        throw error;
      }
    },
    replace: (userId, version, state, outbox, at) =>
      bots.findOneAndUpdate(
        { _id: userId, version },
        {
          $set: { ...state, updatedAt: at },
          $inc: { version: 1 },
          ...(outbox.length > 0 ? { $push: { outbox: { $each: outbox } } } : {}),
        },
        { returnDocument: 'after' },
      ),
    outboxCollection: bots,
    incrementCount: async (userId, key) => {
      const doc = await counts.findOneAndUpdate(
        { _id: countId(userId, key) },
        { $inc: { count: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return doc?.count ?? 1;
    },
    resetCount: async (userId, key) => {
      await counts.deleteOne({ _id: countId(userId, key) });
    },
    moveCount: async (userId, fromKey, toKey) => {
      if (fromKey === toKey) return;
      const from = await counts.findOne({ _id: countId(userId, fromKey) });
      // none: never run, or moved already (a replayed event), which must not reset the new count
      if (!from) return;
      await counts.updateOne({ _id: countId(userId, toKey) }, { $inc: { count: from.count } }, { upsert: true });
      await counts.deleteOne({ _id: countId(userId, fromKey) });
    },
  };
}

/** The state part of a stored document (without `_id`, version, outbox and time). */
export function stateOf(doc: BotDoc): BotState {
  return {
    seen: doc.seen,
    username: doc.username,
    isActive: doc.isActive,
    kick: doc.kick ? { ...doc.kick } : null,
    botEnabled: doc.botEnabled,
    isRunning: doc.isRunning,
    // absent on documents written before it existed
    resumeOnActivation: doc.resumeOnActivation ?? false,
    isConnected: doc.isConnected,
    error: doc.error,
    lostSubscription: doc.lostSubscription ?? '',
    controlRequestId: doc.controlRequestId,
    commands: doc.commands.map(({ key, command, response, settings }) => ({
      key,
      command,
      response,
      // absent on commands stored before settings existed
      ...(settings ? { settings: { ...settings, aliases: [...settings.aliases] } } : {}),
    })),
  };
}
