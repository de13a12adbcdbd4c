import { DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';
import type { Usage } from './usage';

/**
 * `command-usage`: one document per command of a streamer, `_id` = `{userId}:{command key}`. A
 * write is made on the version read and retried when another write came first.
 */
export interface CommandUsageDoc extends Document, Usage {
  userId: string;
  /** The command's key (lower case). */
  command: string;
  version: number;
}

export interface CommandUsageRepository {
  createIndexes(): Promise<void>;
  load(userId: string, command: string): Promise<CommandUsageDoc | null>;
  /** Creates the document; false when it exists already (someone else created it first). */
  create(userId: string, command: string, usage: Usage): Promise<boolean>;
  /** Writes the usage if the document is still at `version`; false when it is not. */
  save(doc: CommandUsageDoc, usage: Usage): Promise<boolean>;
  listOf(userId: string): Promise<CommandUsageDoc[]>;
  removeAllOf(userId: string): Promise<void>;
}

const idOf = (userId: string, command: string) => `${userId}:${command}`;

export function createCommandUsageRepository(store: Store): CommandUsageRepository {
  const usage = store.collection<CommandUsageDoc>('command-usage');
  return {
    createIndexes: () => usage.createIndex({ fields: { userId: 1 } }),
    load: (userId, command) => usage.findOne({ _id: idOf(userId, command) }),
    create: async (userId, command, next) => {
      try {
        await usage.insertOne({ _id: idOf(userId, command), userId, command, ...next, version: 1 });
        return true;
      } catch (error) {
        if (error instanceof DuplicateKeyError) return false;
        throw error;
      }
    },
    save: async (doc, next) =>
      (await usage.findOneAndUpdate(
        { _id: doc._id, version: doc.version },
        {
          $set: { hours: next.hours, lastUsedAt: next.lastUsedAt, recentEventIds: next.recentEventIds },
          $inc: { version: 1 },
        },
      )) !== null,
    listOf: (userId) => usage.find({ userId }),
    removeAllOf: async (userId) => {
      await usage.deleteMany({ userId });
    },
  };
}
