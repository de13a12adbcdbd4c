import type { CommandSettings } from '@kickstand/api-contract';
import { DuplicateKeyError, type Collection, type Document, type Store } from '@kickstand/platform/store';

/** One custom command of one streamer. */
export interface StoredCommand {
  /** As the streamer typed it (without `$`), for display. */
  name: string;
  /** The name lowercased (commandKey): unique per streamer, so names differing only in letter case collide. */
  nameLower: string;
  response: string;
  createdAt: Date;
  /** Absent on commands stored before settings existed: they have the defaults (settingsOf). */
  settings?: CommandSettings;
}

/**
 * A command.changed waiting to be published (the outbox). It is written in the same atomic update
 * as the change it announces and pulled once the bus took it (the platform's outbox relay), so a
 * crash or a bus outage between the two only delays the message: command.changed cannot be lost.
 */
export interface PendingCommandChange {
  eventId: string;
  kind: 'ADDED' | 'REMOVED' | 'UPDATED';
  command: string;
  response: string;
  /** UPDATED: the name before the change. */
  previousCommand?: string;
  /** Absent in entries written before settings existed: the defaults. */
  settings?: CommandSettings;
  occurredAt: Date;
}

/**
 * A streamer's commands, `_id` = user id: one document, so that a change and its message are one
 * atomic write, and one user's messages leave in the order of the changes (bot-runner applies
 * them in order). `version` grows by one with every write; a write on a stale version is retried.
 */
export interface CommandSetDoc extends Document {
  commands: StoredCommand[];
  outbox: PendingCommandChange[];
  version: number;
}

/** Before command sets, each command was a document of its own; a user's are read once into the set. */
export interface LegacyCommandDoc extends Document, StoredCommand {
  userId: string;
}

/** The mark that a streamer was given the default command; `_id` is the user id. Kept for good. */
export interface SeededUserDoc extends Document {
  seededAt: Date;
}

export interface CommandsRepository {
  /** The user's set: made the first time from the user's legacy per-command documents (none: empty). */
  load(userId: string): Promise<CommandSetDoc>;
  /** Writes the commands and appends the changes if the set is still at `version`; null when it is not. */
  save(
    userId: string,
    version: number,
    commands: readonly StoredCommand[],
    changes: readonly PendingCommandChange[],
  ): Promise<CommandSetDoc | null>;
  isSeeded(userId: string): Promise<boolean>;
  markSeeded(userId: string, at: Date): Promise<void>;
  /** The sets, for the platform's outbox relay. */
  outboxCollection: Collection<CommandSetDoc>;
}

export function createCommandsRepository(store: Store): CommandsRepository {
  const sets = store.collection<CommandSetDoc>('command-sets');
  const legacy = store.collection<LegacyCommandDoc>('commands');
  const seededUsers = store.collection<SeededUserDoc>('seeded-users');

  async function load(userId: string): Promise<CommandSetDoc> {
    const found = await sets.findOne({ _id: userId });
    if (found) return found;
    const commands = (await legacy.find({ userId })).map(({ name, nameLower, response, createdAt }) => ({
      name,
      nameLower,
      response,
      createdAt,
    }));
    try {
      return await sets.insertOne({ _id: userId, commands, outbox: [], version: 0 });
    } catch (error) {
      // another request made it first: it was made from the same documents
      if (!(error instanceof DuplicateKeyError)) throw error;
      const made = await sets.findOne({ _id: userId });
      if (!made) throw error;
      return made;
    }
  }

  return {
    load,
    save: (userId, version, commands, changes) =>
      sets.findOneAndUpdate(
        { _id: userId, version },
        {
          $set: { commands: [...commands] },
          $inc: { version: 1 },
          ...(changes.length > 0 ? { $push: { outbox: { $each: [...changes] } } } : {}),
        },
        { returnDocument: 'after' },
      ),
    isSeeded: async (userId) => (await seededUsers.findOne({ _id: userId })) !== null,
    markSeeded: async (userId, at) => {
      await seededUsers.updateOne({ _id: userId }, { $setOnInsert: { seededAt: at } }, { upsert: true });
    },
    outboxCollection: sets,
  };
}
