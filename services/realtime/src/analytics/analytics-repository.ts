import { DuplicateKeyError, type Store, type Update } from '@kickstand/platform/store';
import { analyticsLimits, countNames, dayMs, type Counts, type DayDelta, type MinuteDelta } from './buckets';
import { NameHashSet } from './name-hashes';

/** One channel owner's minute: `_id` is `<userId>|<minute ISO>`. */
export interface MinuteDoc {
  _id: string;
  userId: string;
  minute: Date;
  counts: Counts;
  /** Chat lines per chatter (at most analyticsLimits.chattersPerMinute names). */
  chatters?: Record<string, number>;
  /** Lines whose chatter is not in `chatters` (cap reached or an unusable name). */
  unnamedLines?: number;
  /** Answered commands per command name. */
  commandRuns?: Record<string, number>;
}

/** One channel owner's UTC day: `_id` is `<userId>|<YYYY-MM-DD>`. */
export interface DayDoc {
  _id: string;
  userId: string;
  day: Date;
  /** Per hour of the day, "00"–"23"; hours without anything are absent. */
  hours?: Record<string, Partial<Counts>>;
  /** Chat lines per chatter (at most analyticsLimits.chattersPerDay names). */
  chatters?: Record<string, number>;
  unnamedLines?: number;
  commandRuns?: Record<string, number>;
}

/** One stream (Kick sends no stream id: the owner and started_at identify it). */
export interface StreamDoc {
  _id: string;
  userId: string;
  startedAt: Date;
  endedAt: Date | null;
  /** The title at the start and each change after, oldest first. */
  titles: Array<{ at: Date; title: string }>;
}

/**
 * The names a day document holds already, so that its caps are kept without reading it every flush
 * (as hashes: name-hashes.ts says what a collision does).
 */
export interface DayNames {
  chatters: NameHashSet;
  commands: NameHashSet;
}

export interface AnalyticsRepository {
  createIndexes(): Promise<void>;
  /** Adds a minute's counts to its bucket (created when missing). */
  addMinute(delta: MinuteDelta): Promise<void>;
  /** The names already kept in a day bucket. */
  dayNames(userId: string, day: Date): Promise<DayNames>;
  /** Adds a day's counts; names beyond the caps (given the names already kept) are counted as unnamed. */
  addDay(delta: DayDelta, names: DayNames): Promise<void>;
  minutesBetween(userId: string, from: Date, to: Date): Promise<MinuteDoc[]>;
  daysBetween(userId: string, from: Date, to: Date): Promise<DayDoc[]>;
  /** The stream that started last, or null. */
  lastStream(userId: string): Promise<StreamDoc | null>;
  /** The streams that overlap [from, to), oldest first. */
  streamsBetween(userId: string, from: Date, to: Date): Promise<StreamDoc[]>;
  streamStarted(userId: string, startedAt: Date, title: string): Promise<void>;
  streamEnded(userId: string, startedAt: Date, endedAt: Date, title: string): Promise<void>;
  /** Records a title change within the stream running at `at`; none running: nothing to do. */
  titleChanged(userId: string, at: Date, title: string): Promise<void>;
}

const dayKey = (day: Date): string => day.toISOString().slice(0, 10);
const retentionSeconds = analyticsLimits.retentionDays * 24 * 3600;
/** Streams older than the retention are of no range; a few days more for one that ran long. */
const streamLookbackMs = 2 * dayMs;

function incrementsOf(prefix: string, map: ReadonlyMap<string, number>): Record<string, number> {
  const inc: Record<string, number> = {};
  for (const [name, count] of map) inc[`${prefix}.${name}`] = count;
  return inc;
}

export function createAnalyticsRepository(store: Store): AnalyticsRepository {
  const minutes = store.collection<MinuteDoc>('analytics-minutes');
  const days = store.collection<DayDoc>('analytics-days');
  const streams = store.collection<StreamDoc>('analytics-streams');
  const streamId = (userId: string, startedAt: Date) => `${userId}|${startedAt.toISOString()}`;

  return {
    createIndexes: async () => {
      await minutes.createIndex({ fields: { userId: 1, minute: 1 } });
      await minutes.createIndex({ fields: { minute: 1 }, expireAfterSeconds: retentionSeconds });
      await days.createIndex({ fields: { userId: 1, day: 1 } });
      await days.createIndex({ fields: { day: 1 }, expireAfterSeconds: retentionSeconds });
      await streams.createIndex({ fields: { userId: 1, startedAt: -1 } });
      await streams.createIndex({ fields: { startedAt: 1 }, expireAfterSeconds: retentionSeconds });
    },

    addMinute: async (delta) => {
      const _id = `${delta.userId}|${delta.minute.toISOString()}`;
      // A minute is normally written once, after it ended: inserting the finished document costs
      // the embedded store a fraction of an upsert's `$inc` per name. When it exists already (a
      // line that came late, a report that wrote the minute under way, another instance), the
      // insert fails whole and the counts are added to it instead.
      const doc: MinuteDoc = { _id, userId: delta.userId, minute: delta.minute, counts: { ...delta.counts } };
      if (delta.chatters.size > 0) doc.chatters = Object.fromEntries(delta.chatters);
      if (delta.unnamedLines > 0) doc.unnamedLines = delta.unnamedLines;
      if (delta.commands.size > 0) doc.commandRuns = Object.fromEntries(delta.commands);
      try {
        await minutes.insertOne(doc);
        return;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      const inc: Record<string, number> = {
        ...incrementsOf('chatters', delta.chatters),
        ...incrementsOf('commandRuns', delta.commands),
      };
      for (const name of countNames) inc[`counts.${name}`] = delta.counts[name];
      if (delta.unnamedLines > 0) inc.unnamedLines = delta.unnamedLines;
      await minutes.updateOne(
        { _id },
        { $inc: inc, $setOnInsert: { userId: delta.userId, minute: delta.minute } },
        { upsert: true },
      );
    },

    dayNames: async (userId, day) => {
      const doc = await days.findOne({ _id: `${userId}|${dayKey(day)}` });
      return {
        chatters: new NameHashSet(Object.keys(doc?.chatters ?? {})),
        commands: new NameHashSet(Object.keys(doc?.commandRuns ?? {})),
      };
    },

    addDay: async (delta, names) => {
      const inc: Record<string, number> = {};
      for (const [hour, counts] of delta.hours) {
        for (const name of countNames) if (counts[name] !== 0) inc[`hours.${hour}.${name}`] = counts[name];
      }
      let unnamedLines = delta.unnamedLines;
      // each chatter's lines go under its name or to the unnamed ones, never both
      for (const [chatter, lines] of delta.chatters) {
        if (names.chatters.admit(chatter, analyticsLimits.chattersPerDay)) inc[`chatters.${chatter}`] = lines;
        else unnamedLines += lines;
      }
      if (unnamedLines > 0) inc.unnamedLines = unnamedLines;
      for (const [command, runs] of delta.commands) {
        if (names.commands.admit(command, analyticsLimits.commandsPerBucket)) inc[`commandRuns.${command}`] = runs;
      }
      const update: Update = { $setOnInsert: { userId: delta.userId, day: delta.day } };
      if (Object.keys(inc).length > 0) update.$inc = inc;
      await days.updateOne({ _id: `${delta.userId}|${dayKey(delta.day)}` }, update, { upsert: true });
    },

    minutesBetween: (userId, from, to) =>
      minutes.find({ userId, minute: { $gte: from, $lt: to } }, { sort: { minute: 1 } }),

    daysBetween: (userId, from, to) => days.find({ userId, day: { $gte: from, $lt: to } }, { sort: { day: 1 } }),

    lastStream: async (userId) => (await streams.find({ userId }, { sort: { startedAt: -1 }, limit: 1 }))[0] ?? null,

    streamsBetween: async (userId, from, to) => {
      const candidates = await streams.find(
        { userId, startedAt: { $gte: new Date(from.getTime() - streamLookbackMs), $lt: to } },
        { sort: { startedAt: 1 } },
      );
      return candidates.filter((stream) => stream.endedAt === null || stream.endedAt >= from);
    },

    streamStarted: async (userId, startedAt, title) => {
      const _id = streamId(userId, startedAt);
      await streams.updateOne(
        { _id },
        { $setOnInsert: { userId, startedAt, endedAt: null, titles: title ? [{ at: startedAt, title }] : [] } },
        { upsert: true },
      );
    },

    streamEnded: async (userId, startedAt, endedAt, title) => {
      // the end may arrive before the start (Kick does not order deliveries): either creates it
      await streams.updateOne(
        { _id: streamId(userId, startedAt) },
        {
          $set: { endedAt },
          $setOnInsert: { userId, startedAt, titles: title ? [{ at: startedAt, title }] : [] },
        },
        { upsert: true },
      );
    },

    titleChanged: async (userId, at, title) => {
      const [running] = await streams.find({ userId, startedAt: { $lte: at } }, { sort: { startedAt: -1 }, limit: 1 });
      if (!running || (running.endedAt !== null && running.endedAt < at)) return;
      const last = running.titles[running.titles.length - 1];
      if (last?.title === title || running.titles.length >= analyticsLimits.titlesPerStream) return;
      await streams.updateOne({ _id: running._id }, { $push: { titles: { at, title } } });
    },
  };
}
