import type { Document, NewDocument, Store } from '@kickstand/platform/store';

/** One custom command of one streamer. */
export interface CommandDoc extends Document {
  userId: string;
  /** As the streamer typed it (without `$`), for display. */
  name: string;
  /** The name lowercased: unique per streamer, so names differing only in letter case collide. */
  nameLower: string;
  response: string;
  createdAt: Date;
}

/** The mark that a streamer was given the default command; `_id` is the user id. Kept for good. */
export interface SeededUserDoc extends Document {
  seededAt: Date;
}

export interface CommandsRepository {
  createIndexes(): Promise<void>;
  /** Ordered by name regardless of letter case. */
  list(userId: string): Promise<CommandDoc[]>;
  findByKey(userId: string, nameLower: string): Promise<CommandDoc | null>;
  count(userId: string): Promise<number>;
  /** Throws DuplicateKeyError when the streamer already has a command with this key. */
  insert(command: NewDocument<CommandDoc>): Promise<CommandDoc>;
  /** False when it was already gone. */
  removeById(id: string): Promise<boolean>;
  isSeeded(userId: string): Promise<boolean>;
  markSeeded(userId: string, at: Date): Promise<void>;
}

export function createCommandsRepository(store: Store): CommandsRepository {
  const commands = store.collection<CommandDoc>('commands');
  const seededUsers = store.collection<SeededUserDoc>('seeded-users');
  return {
    createIndexes: () => commands.createIndex({ fields: { userId: 1, nameLower: 1 }, unique: true }),
    list: (userId) => commands.find({ userId }, { sort: { nameLower: 1 } }),
    findByKey: (userId, nameLower) => commands.findOne({ userId, nameLower }),
    count: (userId) => commands.count({ userId }),
    insert: (command) => commands.insertOne(command),
    removeById: async (id) => (await commands.deleteOne({ _id: id })) > 0,
    isSeeded: async (userId) => (await seededUsers.findOne({ _id: userId })) !== null,
    markSeeded: async (userId, at) => {
      await seededUsers.updateOne({ _id: userId }, { $setOnInsert: { seededAt: at } }, { upsert: true });
    },
  };
}
