import type { AnalyticsRange, AnalyticsSeries, StreamAnalytics } from '@kickstand/api-contract';
import type { DayDoc, MinuteDoc, StreamDoc } from './analytics-repository';
import {
  analyticsLimits,
  countNames,
  dayMs,
  floorTo,
  hourMs,
  minuteMs,
  zeroCounts,
  type CountName,
  type Counts,
  type NameCounts,
} from './buckets';

/** Pure: the report of a range from the buckets the store holds. */

export interface Window {
  from: Date;
  /** Excluded. */
  to: Date;
  stepMs: number;
}

/**
 * The window of a range at `now`. The last stream: its start to its end (or now while live), by
 * the minute, at most its last 48 hours. 7 and 30 days: the UTC days ending with today, by the
 * hour and by the day.
 */
export function windowOf(range: AnalyticsRange, now: Date, stream: StreamDoc | null): Window | null {
  if (range === 'last-stream') {
    if (!stream) return null;
    const end = stream.endedAt ?? now;
    const to = floorTo(Math.max(end.getTime(), stream.startedAt.getTime()), minuteMs) + minuteMs;
    const from = Math.max(floorTo(stream.startedAt.getTime(), minuteMs), to - analyticsLimits.streamMinutes * minuteMs);
    return { from: new Date(from), to: new Date(to), stepMs: minuteMs };
  }
  const days = range === '7d' ? 7 : 30;
  const to = floorTo(now.getTime(), dayMs) + dayMs;
  return { from: new Date(to - days * dayMs), to: new Date(to), stepMs: range === '7d' ? hourMs : dayMs };
}

const emptySeries = (length: number): AnalyticsSeries => ({
  messages: Array<number>(length).fill(0),
  commands: Array<number>(length).fill(0),
  follows: Array<number>(length).fill(0),
  subscriptions: Array<number>(length).fill(0),
  giftedSubscriptions: Array<number>(length).fill(0),
  kicks: Array<number>(length).fill(0),
});

/** Dense series over the window: every step has a point, zero when nothing happened. */
export function seriesOf(
  window: Window,
  buckets: ReadonlyArray<{ at: Date; counts: Partial<Counts> }>,
): AnalyticsSeries {
  const length = Math.max(0, Math.round((window.to.getTime() - window.from.getTime()) / window.stepMs));
  const series = emptySeries(length);
  for (const { at, counts } of buckets) {
    const index = Math.floor((at.getTime() - window.from.getTime()) / window.stepMs);
    if (index < 0 || index >= length) continue;
    for (const name of countNames) series[name][index] = (series[name][index] ?? 0) + (counts[name] ?? 0);
  }
  return series;
}

/** The hour buckets of day documents, as (start of hour, counts). */
export function hourBucketsOf(days: readonly DayDoc[]): Array<{ at: Date; counts: Partial<Counts> }> {
  return days.flatMap((day) =>
    Object.entries(day.hours ?? {}).map(([hour, counts]) => ({
      at: new Date(day.day.getTime() + Number(hour) * hourMs),
      counts,
    })),
  );
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * The burst threshold of a series: three times the median of its active points (those with a
 * message), and at least five lines above that median, so a quiet stream's 1 → 3 is no burst.
 */
export function burstThreshold(messages: readonly number[]): number {
  const typical = median(messages.filter((value) => value > 0));
  return Math.max(3 * typical, typical + 5);
}

/**
 * Peaks: runs of consecutive points at or above the burst threshold, each reported once at its
 * highest point (the first of equals), biggest first (ties: earlier first), at most `limit`.
 */
export function findPeaks(
  messages: readonly number[],
  limit: number = analyticsLimits.peaks,
): Array<{ index: number; messages: number }> {
  const threshold = burstThreshold(messages);
  const peaks: Array<{ index: number; messages: number }> = [];
  let current: { index: number; messages: number } | null = null;
  messages.forEach((value, index) => {
    if (value >= threshold && value > 0) {
      if (!current || value > current.messages) current = { index, messages: value };
      return;
    }
    if (current) peaks.push(current);
    current = null;
  });
  if (current) peaks.push(current);
  return peaks.sort((a, b) => b.messages - a.messages || a.index - b.index).slice(0, limit);
}

/** The title of the stream running at `at`: its last change at or before then, or null (offline). */
export function titleAt(streams: readonly StreamDoc[], at: Date, now: Date): string | null {
  const time = at.getTime();
  const running = streams.filter(
    (stream) => stream.startedAt.getTime() <= time + minuteMs && time <= (stream.endedAt ?? now).getTime(),
  );
  const stream = running[running.length - 1];
  if (!stream) return null;
  const titles = [...stream.titles].sort((a, b) => a.at.getTime() - b.at.getTime());
  const before = titles.filter((entry) => entry.at.getTime() <= time + minuteMs);
  return (before[before.length - 1] ?? titles[0])?.title ?? null;
}

/** The stream's latest title (by the time of the change), or '' when none is known. */
export function lastTitleOf(stream: StreamDoc): string {
  const titles = [...stream.titles].sort((a, b) => a.at.getTime() - b.at.getTime());
  return titles[titles.length - 1]?.title ?? '';
}

const pairsOf = (map: NameCounts | undefined): ReadonlyArray<readonly [string, number]> =>
  map === undefined ? [] : Array.isArray(map) ? map : Object.entries(map);

/** Named counts summed over buckets, most first (ties by name), at most `limit`. */
export function topOf(
  maps: ReadonlyArray<NameCounts | undefined>,
  limit: number = analyticsLimits.top,
): Array<{ name: string; count: number }> {
  const totals = new Map<string, number>();
  for (const map of maps) for (const [name, count] of pairsOf(map)) totals.set(name, (totals.get(name) ?? 0) + count);
  return [...totals]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit);
}

/** Distinct names over buckets. */
export function distinctNames(maps: ReadonlyArray<NameCounts | undefined>): number {
  const names = new Set<string>();
  for (const map of maps) for (const [name] of pairsOf(map)) names.add(name);
  return names.size;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

export interface ReportInput {
  range: AnalyticsRange;
  now: Date;
  window: Window;
  /** The stream of a last-stream report. */
  stream: StreamDoc | null;
  /** The streams of the window (titles of the peaks). */
  streams: readonly StreamDoc[];
  /** The window's buckets: minutes (last stream) or days (7 / 30 days). */
  buckets: ReadonlyArray<MinuteDoc | DayDoc>;
}

/** The report of a window from its buckets. */
export function buildReport({ range, now, window, stream, streams, buckets }: ReportInput): StreamAnalytics {
  const timed = buckets.flatMap((bucket) =>
    'minute' in bucket ? [{ at: bucket.minute, counts: bucket.counts }] : hourBucketsOf([bucket]),
  );
  const series = seriesOf(window, timed);
  // 30 days are charted by the day, but bursts are looked for by the hour (a day hides them)
  const peakWindow = window.stepMs === dayMs ? { ...window, stepMs: hourMs } : window;
  const peakMessages = peakWindow === window ? series.messages : seriesOf(peakWindow, timed).messages;
  const peaks = findPeaks(peakMessages).map(({ index, messages }) => {
    const at = new Date(peakWindow.from.getTime() + index * peakWindow.stepMs);
    return { at: at.toISOString(), messages, title: titleAt(streams, at, now) };
  });
  const chatterMaps = buckets.map((bucket) => bucket.chatters);
  const totals = Object.fromEntries(countNames.map((name) => [name, sum(series[name])])) as Record<CountName, number>;
  return {
    range,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    stepSeconds: window.stepMs / 1000,
    stream: stream
      ? {
          startedAt: stream.startedAt.toISOString(),
          endedAt: stream.endedAt?.toISOString() ?? null,
          title: lastTitleOf(stream),
        }
      : null,
    totals: {
      ...totals,
      uniqueChatters: distinctNames(chatterMaps),
      isChattersCapped: buckets.some((bucket) => (bucket.unnamedLines ?? 0) > 0),
    },
    series,
    topChatters: topOf(chatterMaps).map(({ name, count }) => ({ username: name, messages: count })),
    topCommands: topOf(buckets.map((bucket) => bucket.commandRuns)).map(({ name, count }) => ({
      command: name,
      executions: count,
    })),
    peaks,
  };
}

/** A range with nothing to show (no stream seen yet). */
export function emptyReport(range: AnalyticsRange, now: Date): StreamAnalytics {
  const at = new Date(floorTo(now.getTime(), minuteMs)).toISOString();
  return {
    range,
    from: at,
    to: at,
    stepSeconds: minuteMs / 1000,
    stream: null,
    totals: { ...zeroCounts(), uniqueChatters: 0, isChattersCapped: false },
    series: emptySeries(0),
    topChatters: [],
    topCommands: [],
    peaks: [],
  };
}
