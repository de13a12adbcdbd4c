import type { CommandStats } from '@kickstand/api-contract';

/**
 * A command's uses, in hourly buckets over the last 7 days (at most 168 counts per command), and
 * its last use. "Last 24 hours" is the current hour and the 23 before it (so 23 to 24 hours back),
 * "last 7 days" the current hour and the 167 before it. Pure: the caller gives the time.
 */

export const hourMs = 60 * 60 * 1000;
export const keptHours = 7 * 24;
/** How many event ids a command remembers so a redelivered command.executed is not counted twice. */
export const rememberedEvents = 200;

export interface Usage {
  /** `YYYY-MM-DDTHH` (UTC) → runs in that hour. */
  hours: Record<string, number>;
  lastUsedAt: Date | null;
  /** The newest event ids counted, oldest first. */
  recentEventIds: string[];
}

export const emptyUsage = (): Usage => ({ hours: {}, lastUsedAt: null, recentEventIds: [] });

const hourKey = (ms: number): string => new Date(ms).toISOString().slice(0, 13);
const hourStart = (ms: number): number => Math.floor(ms / hourMs) * hourMs;

/** The buckets still inside the kept 7 days at `now`. */
function keptBuckets(hours: Record<string, number>, now: Date): Record<string, number> {
  const oldest = hourKey(hourStart(now.getTime()) - (keptHours - 1) * hourMs);
  return Object.fromEntries(Object.entries(hours).filter(([key]) => key >= oldest));
}

/**
 * One run more at `at`; null when `eventId` was counted already. A run older than the kept 7 days
 * (a late redelivery) only moves the last use; old buckets are dropped on the way.
 */
export function recordUse(usage: Usage, at: Date, eventId: string, now: Date): Usage | null {
  if (usage.recentEventIds.includes(eventId)) return null;
  const hours = keptBuckets(usage.hours, now);
  const key = hourKey(at.getTime());
  const oldest = hourKey(hourStart(now.getTime()) - (keptHours - 1) * hourMs);
  if (key >= oldest) hours[key] = (hours[key] ?? 0) + 1;
  return {
    hours,
    lastUsedAt: usage.lastUsedAt && usage.lastUsedAt >= at ? usage.lastUsedAt : at,
    recentEventIds: [...usage.recentEventIds, eventId].slice(-rememberedEvents),
  };
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
