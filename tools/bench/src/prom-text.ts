/**
 * Kickstand's Prometheus metrics (`/metrics`, text exposition format), read by the bench before
 * and after a measured window: a histogram's window is the difference of its cumulative buckets,
 * and its quantiles are estimated from those buckets as Prometheus's `histogram_quantile` does
 * (linear inside the bucket the rank falls in), so a figure is only as fine as the buckets.
 */

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** `name{a="x",b="y"} 1.5` or `name 1.5` (an optional timestamp after the value is ignored). */
const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function promNumber(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

const unescape = (value: string) => value.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** Every sample of a scrape; comment lines (HELP, TYPE) and blank lines are skipped. */
export function parsePromText(text: string): PromSample[] {
  const samples: PromSample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = sampleLine.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(labelPair)) labels[pair[1] as string] = unescape(pair[2] as string);
    samples.push({ name: match[1] as string, labels, value: promNumber(match[3] as string) });
  }
  return samples;
}

const matches = (labels: Record<string, string>, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([key, value]) => labels[key] === value);

/** A histogram over a window: cumulative bucket counts by upper bound (ascending, +Inf last), count and sum. */
export interface HistogramWindow {
  buckets: { le: number; count: number }[];
  count: number;
  sum: number;
}

/** The histogram `name` summed over every series whose labels include `wanted`, as one scrape holds it. */
export function histogramAt(
  samples: readonly PromSample[],
  name: string,
  wanted: Record<string, string> = {},
): HistogramWindow {
  const byLe = new Map<number, number>();
  let count = 0;
  let sum = 0;
  for (const sample of samples) {
    if (!matches(sample.labels, wanted)) continue;
    if (sample.name === `${name}_bucket`) {
      const le = promNumber(sample.labels.le ?? 'NaN');
      byLe.set(le, (byLe.get(le) ?? 0) + sample.value);
    } else if (sample.name === `${name}_count`) count += sample.value;
    else if (sample.name === `${name}_sum`) sum += sample.value;
  }
  const buckets = [...byLe.entries()].sort((a, b) => a[0] - b[0]).map(([le, n]) => ({ le, count: n }));
  return { buckets, count, sum };
}

/** after − before, bucket by bucket (a series missing before counts from 0). */
export function histogramDelta(before: HistogramWindow, after: HistogramWindow): HistogramWindow {
  const earlier = new Map(before.buckets.map((b) => [b.le, b.count]));
  return {
    buckets: after.buckets.map((b) => ({ le: b.le, count: b.count - (earlier.get(b.le) ?? 0) })),
    count: after.count - before.count,
    sum: after.sum - before.sum,
  };
}

/**
 * The q-quantile (0 < q < 1) of a histogram, as Prometheus's histogram_quantile: the bucket holding
 * rank q × count, linear between its lower and upper bound (the first bucket from 0). A rank in the
 * +Inf bucket gives the highest finite bound (the figure is "at least that"). NaN when empty.
 */
export function bucketQuantile(histogram: HistogramWindow, q: number): number {
  if (!(q > 0 && q < 1)) throw new RangeError(`quantile must be in (0, 1), got ${q}`);
  const { buckets } = histogram;
  const total = buckets.at(-1)?.count ?? 0;
  if (total <= 0) return Number.NaN;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bucket of buckets) {
    if (bucket.count >= rank) {
      if (!Number.isFinite(bucket.le)) return lowerBound;
      const inBucket = bucket.count - lowerCount;
      return inBucket <= 0 ? bucket.le : lowerBound + (bucket.le - lowerBound) * ((rank - lowerCount) / inBucket);
    }
    lowerBound = bucket.le;
    lowerCount = bucket.count;
  }
  return lowerBound;
}

/** A histogram window in milliseconds: count, mean (exact: sum / count) and bucket-estimated quantiles. */
export interface StageSummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

const inMs = (seconds: number) => (Number.isFinite(seconds) ? Number((seconds * 1000).toFixed(2)) : Number.NaN);

/** Summarises a window of a histogram measured in seconds. */
export function stageSummary(window: HistogramWindow): StageSummary {
  return {
    count: window.count,
    meanMs: window.count > 0 ? inMs(window.sum / window.count) : Number.NaN,
    p50Ms: inMs(bucketQuantile(window, 0.5)),
    p95Ms: inMs(bucketQuantile(window, 0.95)),
    p99Ms: inMs(bucketQuantile(window, 0.99)),
  };
}

/** A gauge's value in the scrape (the first series whose labels include `wanted`); NaN when absent. */
export function gaugeAt(samples: readonly PromSample[], name: string, wanted: Record<string, string> = {}): number {
  return samples.find((s) => s.name === name && matches(s.labels, wanted))?.value ?? Number.NaN;
}

/** Every distinct value of `label` among a metric's series (e.g. the stages of kickstand_reply_stage_seconds). */
export function labelValues(samples: readonly PromSample[], name: string, label: string): string[] {
  const values = new Set<string>();
  for (const s of samples) {
    if (s.name === `${name}_count` && s.labels[label] !== undefined) values.add(s.labels[label]);
  }
  return [...values].sort();
}
