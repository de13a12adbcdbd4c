import {
  defaultModerationFilters,
  moderationFiltersSchema,
  type FilterName,
  type ModerationActionKind,
  type ModerationFilters,
  type ModerationLogEntry,
} from '@kickstand/api-contract';
import type { Clock } from '@kickstand/platform/clock';
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

/**
 * How the filters read for every chat line are cached: at most `maxEntries` streamers (the longest
 * held out first), each for `ttlMs`. A save on this instance replaces the entry at
 * once; a save on another bot-runner instance (distributed mode) applies here within `filtersCacheMs`.
 */
export const filtersCache = { maxEntries: 10_000, ttlMs: 10_000 };

export function createModerationRepository(
  store: Store,
  options: { clock: Clock; filtersCache?: { maxEntries: number; ttlMs: number } },
): ModerationRepository {
  const settings = store.collection<ModerationSettingsDoc>('moderation-settings');
  const log = store.collection<ModerationLogDoc>('moderation-log');
  const { maxEntries, ttlMs } = options.filtersCache ?? filtersCache;
  // insertion order is the order entries were read in: the first is the oldest
  const cached = new Map<string, { filters: ModerationFilters; untilMs: number }>();
  const remember = (userId: string, filters: ModerationFilters) => {
    const untilMs = options.clock.now().getTime() + ttlMs;
    // the entry read again every ttlMs is kept, changed in place: a new one each time outlived the
    // young generation (docs/performance.md, "Garbage made in the old generation")
    const entry = cached.get(userId) ?? { filters, untilMs };
    entry.filters = filters;
    entry.untilMs = untilMs;
    cached.delete(userId);
    cached.set(userId, entry);
    for (const oldest of cached.keys()) {
      if (cached.size <= maxEntries) break;
      cached.delete(oldest);
    }
  };
  /** Bumped by every save: a read that started before one is not cached (it may hold the old filters). */
  let saves = 0;
  return {
    filters: async (userId) => {
      const held = cached.get(userId);
      if (held && held.untilMs > options.clock.now().getTime()) return held.filters;
      const savesBefore = saves;
      const stored = (await settings.findOne({ _id: userId }))?.filters;
      // most streamers never saved any: no parse (and no error built) for those
      const parsed = stored === undefined ? undefined : moderationFiltersSchema.safeParse(stored);
      const filters = parsed?.success ? parsed.data : defaultModerationFilters;
      if (saves === savesBefore) remember(userId, filters);
      return filters;
    },
    saveFilters: async (userId, filters) => {
      saves += 1;
      cached.delete(userId);
      await settings.updateOne({ _id: userId }, { $set: { filters } }, { upsert: true });
      saves += 1;
      remember(userId, filters);
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
