import { createHash } from 'node:crypto';
import {
  DuplicateKeyError,
  type RecentItem,
  type RecentLogSpec,
  type Store,
  type Update,
} from '@kickstand/platform/store';
import {
  analyticsLimits,
  countNames,
  createDayChattersTally,
  isNamePairs,
  dayMs,
  hourMs,
  zeroCounts,
  type Counts,
  type DayChatters,
  type DayDelta,
  type MinuteDelta,
  type NameCounts,
} from './buckets';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One channel owner's minute as read: `_id` is `<userId>|<minute ISO>`, its entries (MinuteEntry)
 * summed. The names of a minute written once are as its entry keeps them (pairs, or an object);
 * of one written more than once, a null-prototype object (minuteDocsOf says why).
 */
export interface MinuteDoc {
  _id: string;
  userId: string;
  minute: Date;
  counts: Counts;
  /** Chat lines per chatter (at most analyticsLimits.chattersPerMinute names a write). */
  chatters?: NameCounts;
  /** Lines whose chatter is not in `chatters` (cap reached or an unusable name). */
  unnamedLines?: number;
  /** Answered commands per command name. */
  commandRuns?: NameCounts;
}

/** One channel owner's UTC day as read: `_id` is `<userId>|<YYYY-MM-DD>`. */
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
 * A day as the collection `analytics-days` holds it (read as a DayDoc, its chatters from its
 * minutes): counts only. A day's chatters are its minutes' (`createDayChattersTally`): kept in
 * the day too, they were its largest part, a text of up to 5,000 names held on the embedded store's
 * heap all day (docs/decisions/analytics-day-chatters-from-minutes.md).
 */
export interface StoredDayDoc {
  _id: string;
  userId: string;
  day: Date;
  hours?: Record<string, Partial<Counts>>;
  commandRuns?: Record<string, number>;
  /** How many times the day was written: a write is made only if no other came between its read and its update. */
  writes?: number;
  /**
   * Versions before kept the day's chatters here (as text, `chatterNames` and `chatterLines`, or as
   * an object by name) and their unnamed lines: not read (the minutes hold the same lines), removed
   * by the day's next write.
   */
  chatterNames?: string;
  chatterLines?: string;
  chatters?: Record<string, number>;
  unnamedLines?: number;
}

/** The fields of earlier versions that a day's next write removes (StoredDayDoc). */
const formerDayFields = ['chatterNames', 'chatterLines', 'chatters', 'unnamedLines'] as const;

/**
 * Names and their counts as a minute entry keeps them: `[name, count]` pairs, or (documents of
 * versions before the recent log) an object by name. Pairs, because an object of ~60 names that
 * no other object shares costs V8 a hidden class per name wherever it is built: parsing a minute
 * of 60 chatters took ~70–90 µs as an object, ~8–14 µs as pairs (MongoDB's driver builds its
 * documents the same way; docs/decisions/analytics-minutes-recent-log.md).
 */
export type StoredNameCounts = Array<[string, number]> | Record<string, number>;

/**
 * One write of a minute, an entry of the recent log `analytics-minutes` (on MongoDB the document
 * `{ _id, userId, minute, ...entry }`). The first write of a minute has the id `<userId>|<minute
 * ISO>`, a later one (a line that came late, a report that wrote the minute under way, another
 * instance) `<userId>|<minute ISO>|<n>`, n ≥ 2; a read sums them.
 */
export type MinuteEntry = {
  counts: Counts;
  /** Chat lines per chatter (at most analyticsLimits.chattersPerMinute names a write). */
  chatters?: StoredNameCounts;
  unnamedLines?: number;
  commandRuns?: StoredNameCounts;
};

/**
 * The store's recent log `analytics-minutes`: each owner's newest 2,880 minute entries (the
 * longest last stream the report shows: 48 hours by the minute), ordered by the minute. Read only
 * by the last-stream report. On MongoDB an entry is the `MinuteDoc` earlier versions wrote; the
 * embedded store imports the collection of that name once (Store.recentLog), and keeps each
 * entry's text on disk rather than the document on the heap (docs/performance.md, "Stream
 * analytics in memory").
 */
export const minutesSpec: RecentLogSpec = {
  keepPerKey: analyticsLimits.streamMinutes,
  keyField: 'userId',
  atField: 'minute',
};

/**
 * A day that ended, as an entry of the recent log `analytics-past-days` (on MongoDB the document
 * `{ _id, userId, day, ...entry }`): the day document it was, with the chatters of its minutes
 * (a day's document keeps none), names as `[name, count]` pairs.
 */
export type PastDayEntry = {
  hours?: Record<string, Partial<Counts>>;
  chatters?: Array<[string, number]>;
  unnamedLines?: number;
  commandRuns?: Array<[string, number]>;
};

/**
 * The store's recent log `analytics-past-days`: the days that ended, moved out of the collection
 * `analytics-days` by `closeDays`. A day is written every minute while it lasts, then never again
 * (but for a Kick event delivered more than a day late: a second entry, summed when read), and is
 * read only by the 7 and 30 day reports. The embedded store keeps each entry's text on disk, not
 * the document on the heap: a busy channel's day holds up to 5,000 names, ~200 kB of heap as a
 * document of their earlier shape, 31 of them kept (docs/performance.md, session of 2026-11-27 21:30 UTC).
 * Kept per owner: twice the 31 days (a day moved in more than one entry); older ones are not read.
 */
export const pastDaysSpec: RecentLogSpec = {
  keepPerKey: 2 * analyticsLimits.retentionDays,
  keyField: 'userId',
  atField: 'day',
};

/** Writes of one minute beyond which addMinute gives up (a fault: each report or late line adds one). */
const maxWritesPerMinute = 10_000;
/** Tries of a day's write beyond which addDay gives up (each lost only to another write of the same day). */
const maxDayWriteTries = 20;

export interface AnalyticsRepository {
  /** Prepares the buckets (indexes; the recent logs of minutes and of past days). */
  createIndexes(): Promise<void>;
  /** Adds a minute's counts to its bucket: a new entry, summed with the minute's others when read. */
  addMinute(delta: MinuteDelta): Promise<void>;
  /** Adds a day's counts (its chatters are those of its minutes: addMinute). */
  addDay(delta: DayDelta): Promise<void>;
  /** The minutes in [from, to) among the owner's kept ones, one document per minute, oldest first. */
  minutesBetween(userId: string, from: Date, to: Date): Promise<MinuteDoc[]>;
  /**
   * The days in [from, to), one document per day (the collection's and the moved ones summed),
   * oldest first; a day still in the collection has its chatters read from its minutes.
   */
  daysBetween(userId: string, from: Date, to: Date): Promise<DayDoc[]>;
  /**
   * Moves up to `limit` day documents of days that started before `startedBefore` from the
   * collection to the recent log of past days, each with its chatters read from its minutes;
   * returns how many it moved.
   */
  closeDays(startedBefore: Date, limit: number): Promise<number>;
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

/** The entry a minute's delta is written as (copies: the delta is the caller's). */
function entryOf(delta: MinuteDelta): MinuteEntry {
  const entry: MinuteEntry = { counts: { ...delta.counts } };
  if (delta.chatters.size > 0) entry.chatters = [...delta.chatters];
  if (delta.unnamedLines > 0) entry.unnamedLines = delta.unnamedLines;
  if (delta.commands.size > 0) entry.commandRuns = [...delta.commands];
  return entry;
}

/**
 * The sum of two name maps, as a null-prototype object: V8 keeps one as a dictionary from the
 * start, so adding ~60 names no other object has costs no hidden class each (an ordinary object
 * would, ~1.2 µs a name).
 */
function summed(first: NameCounts | undefined, second: NameCounts | undefined): NameCounts | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  const sum = Object.create(null) as Record<string, number>;
  for (const map of [first, second])
    for (const [name, count] of Array.isArray(map) ? map : Object.entries(map)) sum[name] = (sum[name] ?? 0) + count;
  return sum;
}

/**
 * The entries of minutes (in order of the minute) as one document per minute, their counts
 * summed; a minute written once keeps its entry's name maps as they are (nothing copied).
 */
export function minuteDocsOf(userId: string, items: ReadonlyArray<RecentItem<MinuteEntry>>): MinuteDoc[] {
  const docs: MinuteDoc[] = [];
  for (const { at, entry } of items) {
    const last = docs[docs.length - 1];
    if (!last || last.minute.getTime() !== at.getTime()) {
      const doc: MinuteDoc = { _id: `${userId}|${at.toISOString()}`, userId, minute: at, counts: zeroCounts() };
      for (const name of countNames) doc.counts[name] += entry.counts[name] ?? 0;
      if (entry.chatters) doc.chatters = entry.chatters;
      if (entry.unnamedLines) doc.unnamedLines = entry.unnamedLines;
      if (entry.commandRuns) doc.commandRuns = entry.commandRuns;
      docs.push(doc);
      continue;
    }
    for (const name of countNames) last.counts[name] += entry.counts[name] ?? 0;
    const chatters = summed(last.chatters, entry.chatters);
    if (chatters) last.chatters = chatters;
    if (entry.unnamedLines) last.unnamedLines = (last.unnamedLines ?? 0) + entry.unnamedLines;
    const commandRuns = summed(last.commandRuns, entry.commandRuns);
    if (commandRuns) last.commandRuns = commandRuns;
  }
  return docs;
}

/** A stored day as the reports read it, with its chatters (null: a day moved before, whose entries hold them). */
function dayDocOf(doc: StoredDayDoc, chatters: DayChatters | null): DayDoc {
  const day: DayDoc = { _id: doc._id, userId: doc.userId, day: doc.day };
  if (doc.hours) day.hours = doc.hours;
  if (chatters && chatters.chatters.length > 0) day.chatters = asRecord(chatters.chatters);
  if (chatters && chatters.unnamedLines > 0) day.unnamedLines = chatters.unnamedLines;
  if (doc.commandRuns) day.commandRuns = doc.commandRuns;
  return day;
}

/** A stored day as the entry of the past days' log, with its chatters (null: as in dayDocOf). */
function pastDayEntryOf(doc: StoredDayDoc, chatters: DayChatters | null): PastDayEntry {
  const entry: PastDayEntry = {};
  if (doc.hours) entry.hours = doc.hours;
  if (chatters && chatters.chatters.length > 0) entry.chatters = chatters.chatters;
  if (chatters && chatters.unnamedLines > 0) entry.unnamedLines = chatters.unnamedLines;
  if (doc.commandRuns) entry.commandRuns = Object.entries(doc.commandRuns);
  return entry;
}

/**
 * The update that adds `delta` to the stored day `doc`: its hours, and its commands (a command the
 * day counts already, or a new one while fewer than the cap are counted); the fields of earlier
 * versions go.
 */
function dayWriteOf(doc: StoredDayDoc, delta: DayDelta): Update {
  const inc: Record<string, number> = { writes: 1 };
  for (const [hour, counts] of delta.hours) {
    for (const name of countNames) if (counts[name] !== 0) inc[`hours.${hour}.${name}`] = counts[name];
  }
  const commands = new Set(Object.keys(doc.commandRuns ?? {}));
  for (const [command, runs] of delta.commands) {
    if (!commands.has(command) && commands.size >= analyticsLimits.commandsPerBucket) continue;
    commands.add(command);
    inc[`commandRuns.${command}`] = runs;
  }
  const update: Update = { $inc: inc };
  const former = formerDayFields.filter((field) => doc[field] !== undefined);
  if (former.length > 0) update.$unset = Object.fromEntries(former.map((field) => [field, true]));
  return update;
}

/** Adds a day's counts (a document or an entry of the past days' log) into `sum`. */
function addDayInto(sum: DayDoc, day: Omit<DayDoc, '_id' | 'userId' | 'day'> | PastDayEntry): void {
  for (const [hour, counts] of Object.entries(day.hours ?? {})) {
    const into = ((sum.hours ??= {})[hour] ??= {});
    for (const name of countNames) if (counts[name] !== undefined) into[name] = (into[name] ?? 0) + counts[name];
  }
  const chatters = summed(sum.chatters, day.chatters);
  if (chatters) sum.chatters = asRecord(chatters);
  if (day.unnamedLines) sum.unnamedLines = (sum.unnamedLines ?? 0) + day.unnamedLines;
  const commandRuns = summed(sum.commandRuns, day.commandRuns);
  if (commandRuns) sum.commandRuns = asRecord(commandRuns);
}

/** Name counts as the object a day document keeps them in (pairs: a null-prototype one, as `summed` makes). */
function asRecord(counts: NameCounts): Record<string, number> {
  if (!isNamePairs(counts)) return counts;
  const record = Object.create(null) as Record<string, number>;
  for (const [name, count] of counts) record[name] = count;
  return record;
}

/**
 * The days of the collection and of the past days' log as one document per day, oldest first:
 * a day found in both (a late write after it was moved) or in several entries has them summed.
 */
export function dayDocsOf(
  userId: string,
  docs: readonly DayDoc[],
  past: ReadonlyArray<RecentItem<PastDayEntry>>,
): DayDoc[] {
  if (past.length === 0) return [...docs];
  const byDay = new Map<number, DayDoc>();
  const sumOf = (day: Date): DayDoc => {
    let sum = byDay.get(day.getTime());
    if (!sum) {
      sum = { _id: `${userId}|${dayKey(day)}`, userId, day };
      byDay.set(day.getTime(), sum);
    }
    return sum;
  };
  for (const doc of docs) addDayInto(sumOf(doc.day), doc);
  for (const { at, entry } of past) addDayInto(sumOf(at), entry);
  return [...byDay.values()].sort((a, b) => a.day.getTime() - b.day.getTime());
}

export function createAnalyticsRepository(store: Store): AnalyticsRepository {
  const minutes = store.recentLog<MinuteEntry>('analytics-minutes', minutesSpec);
  const days = store.collection<StoredDayDoc>('analytics-days');
  const pastDays = store.recentLog<PastDayEntry>('analytics-past-days', pastDaysSpec);
  const streams = store.collection<StreamDoc>('analytics-streams');
  const streamId = (userId: string, startedAt: Date) => `${userId}|${startedAt.toISOString()}`;
  let opening: Promise<void> | undefined;
  const openLogs = () =>
    (opening ??= Promise.all([minutes.open(), pastDays.open()]).then(
      () => undefined,
      (error: unknown) => {
        opening = undefined; // tried again by the next call
        throw error;
      },
    ));
  /**
   * Each owner's latest minute written here and how many writes of it: the minute under way
   * written for a report is written again when it ends (its n-th write is tried first, not each
   * id from the first).
   */
  const lastWritten = new Map<string, { minuteMs: number; writes: number }>();
  /**
   * Creates a day's document, empty, before its first write (another instance may create it
   * first). A day written again after its move to the past days' log (a Kick event a day late)
   * starts with the commands that log keeps for it, at 0 runs, so that its cap holds across both.
   */
  const createDay = async (_id: string, userId: string, day: Date) => {
    await openLogs();
    const doc: StoredDayDoc = { _id, userId, day, writes: 0 };
    const commands = new Map<string, number>();
    for (const { entry } of await pastDays.range(userId, day, new Date(day.getTime() + dayMs))) {
      for (const [command] of entry.commandRuns ?? []) commands.set(command, 0);
    }
    if (commands.size > 0) doc.commandRuns = Object.fromEntries(commands);
    try {
      await days.insertOne(doc);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  };
  /**
   * A day's chatters, from its minutes. Read an hour at a time, the event loop turning between:
   * a busy day is 1,440 entries or more, ~25 ms of reads and parsing on the embedded store.
   */
  const chattersOfDay = async (userId: string, day: Date): Promise<DayChatters> => {
    await openLogs();
    const tally = createDayChattersTally();
    for (let hourStart = day.getTime(); hourStart < day.getTime() + dayMs; hourStart += hourMs) {
      if (hourStart > day.getTime()) await yieldToEventLoop();
      for (const { entry } of await minutes.range(userId, new Date(hourStart), new Date(hourStart + hourMs))) {
        tally.add(entry);
      }
    }
    return tally.result();
  };
  /** Whether the past days' log holds the day already (its chatters are there, not in the minutes' sum). */
  const isMovedBefore = async (userId: string, day: Date): Promise<boolean> =>
    (await pastDays.range(userId, day, new Date(day.getTime() + dayMs))).length > 0;

  return {
    createIndexes: async () => {
      await openLogs();
      await days.createIndex({ fields: { userId: 1, day: 1 } });
      await days.createIndex({ fields: { day: 1 }, expireAfterSeconds: retentionSeconds });
      await streams.createIndex({ fields: { userId: 1, startedAt: -1 } });
      await streams.createIndex({ fields: { startedAt: 1 }, expireAfterSeconds: retentionSeconds });
    },

    addMinute: async (delta) => {
      await openLogs();
      // A minute is normally written once, after it ended. A later write of it (a line that came
      // late, a report that wrote the minute under way, another instance) is an entry of its own,
      // `|2`, `|3`…: the first id not taken yet (an append of a taken id is a no-op that says so).
      const { userId } = delta;
      const minuteMs = delta.minute.getTime();
      const base = `${userId}|${delta.minute.toISOString()}`;
      const entry = entryOf(delta);
      const last = lastWritten.get(userId);
      for (let write = last?.minuteMs === minuteMs ? last.writes + 1 : 1; write <= maxWritesPerMinute; write += 1) {
        if (await minutes.append(userId, write === 1 ? base : `${base}|${write}`, delta.minute, entry)) {
          if (!last || last.minuteMs <= minuteMs) lastWritten.set(userId, { minuteMs, writes: write });
          return;
        }
      }
      throw new Error(`minute ${base} was written ${maxWritesPerMinute} times already`);
    },

    addDay: async (delta) => {
      const _id = `${delta.userId}|${dayKey(delta.day)}`;
      for (let tries = 0; tries < maxDayWriteTries; tries += 1) {
        const doc = await days.findOne({ _id });
        if (!doc) {
          await createDay(_id, delta.userId, delta.day);
          continue;
        }
        // the commands' cap is read from the day: the update is made only if the day was not
        // written since it was read (another instance, or a move to the past days' log), else read again
        const { matchedCount } = await days.updateOne(
          { _id, writes: doc.writes ?? { $exists: false } },
          dayWriteOf(doc, delta),
        );
        if (matchedCount === 1) return;
      }
      throw new Error(`day ${_id}: ${maxDayWriteTries} other writes came between this write's read and its update`);
    },

    minutesBetween: async (userId, from, to) => {
      await openLogs();
      return minuteDocsOf(userId, await minutes.range(userId, from, to));
    },

    daysBetween: async (userId, from, to) => {
      await openLogs();
      const [docs, past] = await Promise.all([
        days.find({ userId, day: { $gte: from, $lt: to } }, { sort: { day: 1 } }),
        pastDays.range(userId, from, to),
      ]);
      const moved = new Set(past.map(({ at }) => at.getTime()));
      const read: DayDoc[] = [];
      for (const doc of docs) {
        read.push(dayDocOf(doc, moved.has(doc.day.getTime()) ? null : await chattersOfDay(userId, doc.day)));
      }
      return dayDocsOf(userId, read, past);
    },

    closeDays: async (startedBefore, limit) => {
      await openLogs();
      const ended = await days.find({ day: { $lt: startedBefore } }, { sort: { day: 1 }, limit });
      for (const doc of ended) {
        const chatters = (await isMovedBefore(doc.userId, doc.day)) ? null : await chattersOfDay(doc.userId, doc.day);
        const entry = pastDayEntryOf(doc, chatters);
        // the same document moved twice (a crash between the append and the delete, or two
        // instances at once) is one entry, named by the document (the second move, finding the
        // first's entry, would take no chatters); a later document of the same day (a write after
        // the move) is another, summed when read
        const version = createHash('sha1').update(JSON.stringify(doc)).digest('base64url');
        await pastDays.append(doc.userId, `${doc._id}|${version}`, doc.day, entry);
        await days.deleteOne({ _id: doc._id });
      }
      return ended.length;
    },

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
