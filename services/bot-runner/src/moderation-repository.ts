import {
  defaultModerationFilters,
  moderationFiltersSchema,
  type FilterName,
  type ModerationActionKind,
  type ModerationFilters,
  type ModerationLogEntry,
} from '@kickstand/api-contract';
import { DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';

/** One document per streamer (`_id` is the user id): the filters, and the Kick scopes their link has. */
export interface ModerationSettingsDoc extends Document {
  filters?: ModerationFilters;
  /** The scopes Kick granted the link (kick.account LINKED); absent when not known. */
  scopes?: string[];
}

export type ModerationLogStatus = ModerationLogEntry['status'];

/**
 * One document per action. A filter's entry has the id `moderation:<chat message id>`, so a
 * replayed line finds its entry: it is judged once. `isPublished` is the outbox flag: false until
 * the bus took moderation.action.
 */
export interface ModerationLogDoc extends Document {
  userId: string;
  broadcasterUserId: string;
  atMs: number;
  filter: FilterName;
  action: ModerationActionKind;
  timeoutMinutes: number | null;
  messageId: string;
  senderUserId: string;
  senderUsername: string;
  content: string;
  warning: string;
  status: ModerationLogStatus;
  error: string;
  isPublished: boolean;
  /** The unban (undo) was sent. */
  isUndoRequested: boolean;
}

export interface ModerationRepository {
  /** The saved filters; the defaults (all off) when none are saved or the stored ones no longer parse. */
  filters(userId: string): Promise<ModerationFilters>;
  saveFilters(userId: string, filters: ModerationFilters): Promise<void>;
  scopes(userId: string): Promise<string[] | undefined>;
  saveScopes(userId: string, scopes: string[]): Promise<void>;
  /** False when the entry exists already (the line was judged before). */
  insertLog(doc: ModerationLogDoc): Promise<boolean>;
  logEntry(id: string): Promise<ModerationLogDoc | null>;
  /** The user's newest entries first. */
  log(userId: string, limit: number): Promise<ModerationLogDoc[]>;
  updateLog(id: string, change: Partial<ModerationLogDoc>): Promise<ModerationLogDoc | null>;
}

export function createModerationRepository(store: Store): ModerationRepository {
  const settings = store.collection<ModerationSettingsDoc>('moderation-settings');
  const log = store.collection<ModerationLogDoc>('moderation-log');
  return {
    filters: async (userId) => {
      const parsed = moderationFiltersSchema.safeParse((await settings.findOne({ _id: userId }))?.filters);
      return parsed.success ? parsed.data : defaultModerationFilters;
    },
    saveFilters: async (userId, filters) => {
      await settings.updateOne({ _id: userId }, { $set: { filters } }, { upsert: true });
    },
    scopes: async (userId) => (await settings.findOne({ _id: userId }))?.scopes,
    saveScopes: async (userId, scopes) => {
      await settings.updateOne({ _id: userId }, { $set: { scopes } }, { upsert: true });
    },
    insertLog: async (doc) => {
      try {
        await log.insertOne(doc);
        return true;
      } catch (error) {
        if (error instanceof DuplicateKeyError) return false;
        throw error;
      }
    },
    logEntry: (id) => log.findOne({ _id: id }),
    log: (userId, limit) => log.find({ userId }, { sort: { atMs: -1, _id: 1 }, limit }),
    updateLog: (id, change) => log.findOneAndUpdate({ _id: id }, { $set: change }, { returnDocument: 'after' }),
  };
}

export const moderationLogView = (doc: ModerationLogDoc): ModerationLogEntry => ({
  id: doc._id,
  at: new Date(doc.atMs).toISOString(),
  filter: doc.filter,
  action: doc.action,
  timeoutMinutes: doc.timeoutMinutes,
  senderUsername: doc.senderUsername,
  senderUserId: doc.senderUserId,
  content: doc.content,
  status: doc.status,
  error: doc.error,
});
