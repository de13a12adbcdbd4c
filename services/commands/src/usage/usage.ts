import type { CommandStats } from '@kickstand/api-contract';

/**
 * A command's uses, in hourly buckets over the last 7 days (at most 168 counts per command), and
 * its last use. "Last 24 hours" is the current hour and the 23 before it (so 23 to 24 hours back),
 * "last 7 days" the current hour and the 167 before it. Pure: the caller gives the time.
 */

export const hourMs = 60 * 60 * 1000;
export const keptHours = 7 * 24;

export interface Usage {
  /** `YYYY-MM-DDTHH` (UTC) → runs in that hour. */
  hours: Record<string, number>;
  lastUsedAt: Date | null;
}

export const emptyUsage = (): Usage => ({ hours: {}, lastUsedAt: null });

export const hourKey = (ms: number): string => new Date(ms).toISOString().slice(0, 13);
const hourStart = (ms: number): number => Math.floor(ms / hourMs) * hourMs;
/** The oldest hour still kept at `now` (the current hour and the 167 before it). */
const oldestKeptHour = (now: Date): string => hourKey(hourStart(now.getTime()) - (keptHours - 1) * hourMs);

/**
 * The bucket a run at `at` is counted in, or null for a run older than the kept 7 days (a late
 * redelivery: it only moves the last use).
 */
export function bucketOf(at: Date, now: Date): string | null {
  const key = hourKey(at.getTime());
  return key >= oldestKeptHour(now) ? key : null;
}

/** The buckets older than the kept 7 days at `now`: they count for nothing and can go. */
export function staleBuckets(hours: Record<string, number>, now: Date): string[] {
  const oldest = oldestKeptHour(now);
  return Object.keys(hours).filter((key) => key < oldest);
}

/** Runs in the last `hourCount` hours, the current one included. */
function runsInLast(hours: Record<string, number>, now: Date, hourCount: number): number {
  const current = hourStart(now.getTime());
  const oldest = hourKey(current - (hourCount - 1) * hourMs);
  const newest = hourKey(current);
  return Object.entries(hours)
    .filter(([key]) => key >= oldest && key <= newest)
    .reduce((sum, [, count]) => sum + count, 0);
}

export function statsOf(command: string, usage: Usage, now: Date): CommandStats {
  return {
    command,
    last24Hours: runsInLast(usage.hours, now, 24),
    last7Days: runsInLast(usage.hours, now, keptHours),
    lastUsedAt: usage.lastUsedAt ? usage.lastUsedAt.toISOString() : null,
  };
}
