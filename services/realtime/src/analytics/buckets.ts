import { createRecentIds as createPlatformRecentIds } from '@kickstand/platform/store';

/**
 * Stream analytics keeps counts, never messages: per channel owner, one bucket per minute and one
 * per UTC day. Chat lines, commands and Kick events are added up in memory here and written to the
 * store once per flush (analytics.ts), so a busy chat costs a few store writes a minute rather than
 * one per line.
 */

export const minuteMs = 60_000;
export const hourMs = 60 * minuteMs;
export const dayMs = 24 * hourMs;

/** What is counted per bucket. */
export interface Counts {
  messages: number;
  /** Commands the bot answered (custom, built-in and game commands: command.executed). */
  commands: number;
  follows: number;
  /** New subscriptions and renewals. */
  subscriptions: number;
  /** Subscriptions given as gifts (one per giftee). */
  giftedSubscriptions: number;
  /** Kicks gifted (the amount). */
  kicks: number;
}
export type CountName = keyof Counts;
/** Counts by name: an object, or `[name, count]` pairs (a minute as written: MinuteEntry). */
export type NameCounts = Readonly<Record<string, number>> | ReadonlyArray<readonly [string, number]>;
export const countNames: readonly CountName[] = [
  'messages',
  'commands',
  'follows',
  'subscriptions',
  'giftedSubscriptions',
  'kicks',
];
export const zeroCounts = (): Counts => ({
  messages: 0,
  commands: 0,
  follows: 0,
  subscriptions: 0,
  giftedSubscriptions: 0,
  kicks: 0,
});

/**
 * The bounds that keep every bucket small: names beyond a cap are not kept (their lines still
 * count as messages; the bucket notes that some chatters were left out).
 */
export const analyticsLimits = {
  chattersPerMinute: 500,
  chattersPerDay: 5000,
  commandsPerBucket: 200,
  /** Top chatters and top commands in a report. */
  top: 10,
  /** Peak moments in a report. */
  peaks: 5,
  /** How long buckets are kept (a TTL index), a day more than the longest range. */
  retentionDays: 31,
  /** A longer "last stream" shows its last 48 hours. */
  streamMinutes: 48 * 60,
  /** Title changes kept per stream. */
  titlesPerStream: 50,
} as const;

export const floorTo = (ms: number, stepMs: number): number => Math.floor(ms / stepMs) * stepMs;

/** A Kick username or command name as a field name of the store (no dots, no `$`), else null. */
export function nameKey(name: string): string | null {
  return /^[A-Za-z0-9_-]{1,64}$/.test(name) ? name : null;
}

/** One channel owner's changes in one minute, not written yet. */
export interface MinuteDelta {
  userId: string;
  /** Start of the minute. */
  minute: Date;
  counts: Counts;
  chatters: Map<string, number>;
  /** Chat lines whose sender was not kept by name (cap reached, or an unusable name). */
  unnamedLines: number;
  commands: Map<string, number>;
}

/**
 * One channel owner's changes in one UTC day, not written yet: its counts and commands. A day's
 * chatters are not among them: they are read from its minutes (`createDayChattersTally`).
 */
export interface DayDelta {
  userId: string;
  /** Start of the day (UTC). */
  day: Date;
  /** Per hour of the day ("00"–"23"). */
  hours: Map<string, Counts>;
  commands: Map<string, number>;
}

export type Change =
  | { kind: 'message'; chatter: string }
  | { kind: 'command'; command: string }
  | { kind: 'count'; name: Exclude<CountName, 'messages' | 'commands'>; amount: number };

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

/** The pending minutes of every channel owner, in memory until drained. */
export interface MinuteAccumulator {
  add(userId: string, at: Date, change: Change): void;
  /** Everything added since the last drain, and forgets it. */
  drain(): MinuteDelta[];
  /** The minutes that ended at or before `ms` (added since the last drain), and forgets them. */
  drainEndedBy(ms: number): MinuteDelta[];
  isEmpty(): boolean;
}

export function createMinuteAccumulator(): MinuteAccumulator {
  let pending = new Map<string, MinuteDelta>();
  /**
   * Each owner's minute last added to (still pending): nearly every line falls in it, so its key
   * in `pending` need not be built and looked up for every line (a chat line adds twice: its
   * channel and all channels).
   */
  let latest = new Map<string, MinuteDelta>();

  const deltaOf = (userId: string, minuteStart: number): MinuteDelta => {
    const last = latest.get(userId);
    if (last && last.minute.getTime() === minuteStart) return last;
    const key = `${userId}|${minuteStart}`;
    let delta = pending.get(key);
    if (!delta) {
      delta = {
        userId,
        minute: new Date(minuteStart),
        counts: zeroCounts(),
        chatters: new Map(),
        unnamedLines: 0,
        commands: new Map(),
      };
      pending.set(key, delta);
    }
    latest.set(userId, delta);
    return delta;
  };

  return {
    add(userId, at, change) {
      const delta = deltaOf(userId, floorTo(at.getTime(), minuteMs));
      switch (change.kind) {
        case 'message': {
          delta.counts.messages += 1;
          const key = nameKey(change.chatter);
          if (key && (delta.chatters.has(key) || delta.chatters.size < analyticsLimits.chattersPerMinute)) {
            bump(delta.chatters, key);
          } else {
            delta.unnamedLines += 1;
          }
          return;
        }
        case 'command': {
          delta.counts.commands += 1;
          const key = nameKey(change.command.replace(/^\$/, '').toLowerCase());
          if (key && (delta.commands.has(key) || delta.commands.size < analyticsLimits.commandsPerBucket)) {
            bump(delta.commands, key);
          }
          return;
        }
        case 'count':
          delta.counts[change.name] += change.amount;
          return;
      }
    },
    drain() {
      const drained = [...pending.values()];
      pending = new Map();
      latest = new Map();
      return drained;
    },
    drainEndedBy(ms) {
      const drained: MinuteDelta[] = [];
      for (const [key, delta] of pending) {
        if (delta.minute.getTime() + minuteMs > ms) continue;
        drained.push(delta);
        pending.delete(key);
        if (latest.get(delta.userId) === delta) latest.delete(delta.userId);
      }
      return drained;
    },
    isEmpty: () => pending.size === 0,
  };
}

const hourOfDay = (at: Date): string => String(at.getUTCHours()).padStart(2, '0');

/** The minutes grouped into their UTC days, per channel owner (pure). */
export function dayDeltasOf(minutes: readonly MinuteDelta[]): DayDelta[] {
  const days = new Map<string, DayDelta>();
  for (const minute of minutes) {
    const dayStart = floorTo(minute.minute.getTime(), dayMs);
    const key = `${minute.userId}|${dayStart}`;
    let day = days.get(key);
    if (!day) {
      day = { userId: minute.userId, day: new Date(dayStart), hours: new Map(), commands: new Map() };
      days.set(key, day);
    }
    const hour = hourOfDay(minute.minute);
    const counts = day.hours.get(hour) ?? zeroCounts();
    for (const name of countNames) counts[name] += minute.counts[name];
    day.hours.set(hour, counts);
    for (const [command, runs] of minute.commands) bump(day.commands, command, runs);
  }
  return [...days.values()];
}

/** A day's chatters: lines per name (in the order first seen, at most the day's cap), and the rest. */
export interface DayChatters {
  chatters: Array<[string, number]>;
  /** Lines of no name: a minute's own unnamed lines, and those of names beyond the day's cap. */
  unnamedLines: number;
}

/** A minute as a day's chatters are summed from it: a minute entry, or a minute document. */
export interface MinuteChatters {
  chatters?: NameCounts | undefined;
  unnamedLines?: number | undefined;
}

/**
 * A day's chatters summed from its minutes, oldest first: every minute's lines under their names,
 * the first `analyticsLimits.chattersPerDay` names of the day kept, the lines of any later name
 * unnamed. The minutes are the day's record of who chatted (each capped at its own 500 names
 * already, as the day's names always were), so the day keeps no names of its own
 * (docs/decisions/analytics-day-chatters-from-minutes.md).
 */
export function createDayChattersTally(): { add(minute: MinuteChatters): void; result(): DayChatters } {
  const lines = new Map<string, number>();
  let unnamedLines = 0;
  const addLines = (name: string, count: number) => {
    const kept = lines.get(name);
    if (kept !== undefined) lines.set(name, kept + count);
    else if (lines.size < analyticsLimits.chattersPerDay) lines.set(name, count);
    else unnamedLines += count;
  };
  return {
    add(minute) {
      unnamedLines += minute.unnamedLines ?? 0;
      const chatters = minute.chatters;
      if (chatters === undefined) return;
      if (isNamePairs(chatters)) for (const [name, count] of chatters) addLines(name, count);
      else for (const [name, count] of Object.entries(chatters)) addLines(name, count);
    },
    result: () => ({ chatters: [...lines], unnamedLines }),
  };
}

export const isNamePairs = (counts: NameCounts): counts is ReadonlyArray<readonly [string, number]> =>
  Array.isArray(counts);

/**
 * The event ids seen lately, so that a redelivery (a retry, a rebalance) is not counted twice.
 * Bounded: the oldest ids are forgotten first. Held outside the V8 heap (the platform's recent ids):
 * a Set of 20,000 id strings was promoted id by id, and rehashed its table in the old generation.
 */
export function createRecentIds(limit = 20_000): { isNew(id: string): boolean } {
  const ids = createPlatformRecentIds({ maxIds: limit });
  // forgotten by count only, so the time an id is seen at is never read
  return { isNew: (id) => id === '' || ids.isNew(id, 0) };
}
