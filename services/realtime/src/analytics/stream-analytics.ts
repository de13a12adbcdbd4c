import { timestampDate, type Timestamp } from '@kickstand/proto';
import type { AnalyticsRange, StreamAnalytics } from '@kickstand/api-contract';
import type { TopicMessage } from '@kickstand/platform/bus';
import { messageTimeMs, type Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { AnalyticsRepository } from './analytics-repository';
import {
  analyticsLimits,
  createMinuteAccumulator,
  createRecentIds,
  dayDeltasOf,
  dayMs,
  type Change,
  type MinuteDelta,
} from './buckets';
import { kickFactFrom } from './kick-facts';
import { buildReport, emptyReport, windowOf } from './report';

/**
 * The owner key under which every channel's counts are added up as well (the admin's view across
 * all channels); no user id is `*`.
 */
export const allChannels = '*';

/**
 * How often the minutes that are over are written. Each channel's minute is written once, shortly
 * after it ends (a new small document rather than `$inc`s into one already holding its names), so a
 * crash loses the minute under way and at most a few seconds of the one before (docs/analytics.md).
 */
export const analyticsFlushMs = 5_000;

/** A minute is written once it ended this long ago: lines sent just before its end may still arrive. */
export const analyticsMinuteGraceMs = 3_000;

/**
 * Channels whose bucket writes (their minutes and days, ~3 writes a channel) start at once, and
 * the pause after each such chunk in the timer's flush: 1,000 channels' minutes are spread over a
 * few seconds, a few milliseconds of store work at a time, so that chat is never held up behind
 * them. A report or stop does not pause (it only yields to the event loop between chunks).
 */
export const analyticsWriteChunk = 4;
export const analyticsWritePauseMs = 10;

/**
 * A day's document leaves the collection for the recent log of past days (repo.closeDays) this
 * long after the day ended: its last writes (lines believed up to 5 minutes before they arrive,
 * the minute's grace) are long done by then, so the move does not race them. Kick events
 * delivered later still count (a second entry, summed).
 */
export const analyticsCloseDayAfterMs = 60 * 60_000;

/**
 * Chunks of `writeChunk` day documents each timer flush moves at most (with its pause between
 * chunks): 1,000 channels' days are moved within a few minutes, a few documents at a time.
 */
export const analyticsCloseChunksPerFlush = 10;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts the writes of `chunk` items at a time, `between` chunks, and waits for them; returns why
 * each failed write failed. An item's writes are made when its chunk's turn comes (their work too).
 */
async function settleInChunks<T>(
  items: readonly T[],
  chunk: number,
  between: () => Promise<void>,
  writesOf: (item: T) => Array<Promise<void>>,
): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (let index = 0; index < items.length; index += chunk) {
    if (index > 0) await between();
    const writes = items.slice(index, index + chunk).flatMap(writesOf);
    for (const result of await Promise.allSettled(writes)) {
      if (result.status === 'rejected') failures.push(result.reason);
    }
  }
  return failures;
}

/** The minutes grouped by channel owner. */
function byOwner(minutes: readonly MinuteDelta[]): MinuteDelta[][] {
  const owners = new Map<string, MinuteDelta[]>();
  for (const minute of minutes) {
    const own = owners.get(minute.userId);
    if (own) own.push(minute);
    else owners.set(minute.userId, [minute]);
  }
  return [...owners.values()];
}

export interface StreamAnalyticsCounter {
  /** chat.received → one more line (the bot's own lines are not counted). */
  countChat(message: TopicMessage<'chat.received'>): void;
  /** command.executed → one more answered command. */
  countCommand(message: TopicMessage<'command.executed'>): void;
  /** kick.event → follows, subscriptions, gifts; stream starts, ends and title changes (written at once). */
  countKickEvent(message: TopicMessage<'kick.event'>): Promise<void>;
  /** Writes everything counted in memory, the minute under way too (a report, stop). */
  flush(): Promise<void>;
  /** Writes the minutes that are over, pausing between chunks, then moves the days that ended (the timer). */
  flushEnded(): Promise<void>;
  /** The signed-in streamer's report; this instance's unwritten counts are written first. */
  report(userId: string, range: AnalyticsRange): Promise<StreamAnalytics>;
  /** Starts the periodic flush of the minutes that are over. */
  start(): void;
  /** Stops the periodic flush and writes what is left. */
  stop(): Promise<void>;
}

/** A Timestamp that was never set decodes as 0: no time. */
function msOf(timestamp: Timestamp | undefined): number | undefined {
  if (!timestamp) return undefined;
  const ms = timestampDate(timestamp).getTime();
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

export function createStreamAnalytics({
  repo,
  clock,
  log,
  flushEveryMs = analyticsFlushMs,
  writeChunk = analyticsWriteChunk,
  writePauseMs = analyticsWritePauseMs,
}: {
  repo: AnalyticsRepository;
  clock: Clock;
  log: Logger;
  flushEveryMs?: number;
  writeChunk?: number;
  writePauseMs?: number;
}): StreamAnalyticsCounter {
  const pending = createMinuteAccumulator();
  const seen = createRecentIds();
  let flushing: Promise<void> = Promise.resolve();
  /** Flushes queued by a report or stop, not done yet: until then no flush pauses between chunks. */
  let hurried = 0;
  const betweenChunks = () => (hurried > 0 ? yieldToEventLoop() : sleep(writePauseMs));
  let timer: NodeJS.Timeout | undefined;

  /** A time within the kept days (older than that: nothing to add to; a clock far ahead: now). */
  const keptTime = (ms: number | undefined): Date | null => {
    const now = clock.now().getTime();
    const at = ms === undefined || ms > now + 5 * 60_000 ? now : ms;
    return at < now - analyticsLimits.retentionDays * dayMs ? null : new Date(at);
  };

  const add = (userId: string, id: string, ms: number | undefined, change: Change) => {
    if (userId === '' || !seen.isNew(id)) return;
    const at = keptTime(ms);
    if (!at) return;
    pending.add(userId, at, change);
    pending.add(allChannels, at, change);
  };

  /**
   * Writes the minutes, and the days they fall in, `writeChunk` owners at a time (the timer pauses
   * between chunks). A write that fails loses its counts (logged): retrying it could count them twice. A
   * channel's day deltas are made with its writes, so no step adds up all channels' minutes at once.
   */
  const writeMinutes = async (minutes: MinuteDelta[]) => {
    if (minutes.length === 0) return;
    const failures = await settleInChunks(byOwner(minutes), writeChunk, betweenChunks, (own) => [
      ...own.map((minute) => repo.addMinute(minute)),
      ...dayDeltasOf(own).map((day) => repo.addDay(day)),
    ]);
    if (failures.length > 0) {
      log.error({ err: failures[0], failed: failures.length }, 'stream analytics: counts could not be written');
    }
  };

  // one flush at a time, in order: the minutes are taken when the flush's turn comes, so a report
  // queued behind a timed flush still writes everything
  const queueFlush = (take: () => MinuteDelta[]) => {
    flushing = flushing.catch(() => undefined).then(() => writeMinutes(take()));
    return flushing;
  };
  const flush = async () => {
    hurried += 1;
    try {
      await queueFlush(() => pending.drain());
    } finally {
      hurried -= 1;
    }
  };
  /**
   * Moves the days that ended over an hour ago out of the collection (on the embedded store each
   * would stay on the heap for 31 days), in the flushes' queue so that no day write of this
   * instance runs in between.
   */
  const closeEndedDays = async () => {
    const startedBefore = new Date(clock.now().getTime() - dayMs - analyticsCloseDayAfterMs);
    try {
      for (let chunk = 0; chunk < analyticsCloseChunksPerFlush; chunk += 1) {
        if (chunk > 0) await betweenChunks();
        if ((await repo.closeDays(startedBefore, writeChunk)) < writeChunk) return;
      }
    } catch (error) {
      log.error({ err: error }, 'stream analytics: days that ended could not be moved; tried again at the next flush');
    }
  };
  const flushEnded = () => {
    const written = queueFlush(() => pending.drainEndedBy(clock.now().getTime() - analyticsMinuteGraceMs));
    flushing = written.catch(() => undefined).then(closeEndedDays);
    return Promise.all([written, flushing]).then(() => undefined);
  };

  return {
    countChat(message) {
      if (message.isFromBot) return;
      const ms = messageTimeMs({
        createdAtMs: msOf(message.createdAt),
        receivedAtMs: msOf(message.receivedAt),
        nowMs: clock.now().getTime(),
      });
      add(message.ownerUserId, `chat:${message.messageId || message.eventId}`, ms, {
        kind: 'message',
        chatter: message.sender?.username ?? '',
      });
    },

    countCommand(message) {
      add(message.ownerUserId, `command:${message.eventId}`, msOf(message.executedAt) ?? msOf(message.occurredAt), {
        kind: 'command',
        command: message.command,
      });
    },

    async countKickEvent(message) {
      const fact = kickFactFrom(message.eventType, message.payloadJson);
      if (!fact || message.ownerUserId === '') return;
      const id = `kick:${message.kickMessageId || message.eventId}`;
      const ms = msOf(message.messageTimestamp) ?? msOf(message.occurredAt);
      switch (fact.kind) {
        case 'follow':
          return add(message.ownerUserId, id, ms, { kind: 'count', name: 'follows', amount: 1 });
        case 'subscription':
          return add(message.ownerUserId, id, ms, { kind: 'count', name: 'subscriptions', amount: 1 });
        case 'gifted-subscriptions':
          return add(message.ownerUserId, id, ms, { kind: 'count', name: 'giftedSubscriptions', amount: fact.count });
        case 'kicks':
          return add(message.ownerUserId, id, ms, { kind: 'count', name: 'kicks', amount: fact.amount });
        // a stream's start, end and titles are rare: written at once, idempotent on a replay
        case 'stream-status':
          if (fact.isLive) return repo.streamStarted(message.ownerUserId, fact.startedAt, fact.title);
          return repo.streamEnded(
            message.ownerUserId,
            fact.startedAt,
            fact.endedAt ?? new Date(ms ?? clock.now().getTime()),
            fact.title,
          );
        case 'title':
          return repo.titleChanged(message.ownerUserId, new Date(ms ?? clock.now().getTime()), fact.title);
      }
    },

    flush,
    flushEnded,

    async report(userId, range) {
      await flush();
      const now = clock.now();
      const stream = range === 'last-stream' ? await repo.lastStream(userId) : null;
      const window = windowOf(range, now, stream);
      if (!window) return emptyReport(range, now);
      const [buckets, streams] = await Promise.all([
        range === 'last-stream'
          ? repo.minutesBetween(userId, window.from, window.to)
          : repo.daysBetween(userId, window.from, window.to),
        repo.streamsBetween(userId, window.from, window.to),
      ]);
      return buildReport({ range, now, window, stream, streams, buckets });
    },

    start() {
      timer = setInterval(() => void flushEnded(), flushEveryMs);
      timer.unref();
    },

    async stop() {
      clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}
