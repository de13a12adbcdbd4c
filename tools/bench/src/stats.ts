/**
 * Latency figures: nearest-rank percentiles (the smallest sample with at least p % of the samples
 * at or below it), so every figure reported is a latency that was actually measured.
 */

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** `sorted` ascending; p in (0, 100]. NaN when there are no samples. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] as number),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
  };
}

/** Rounds every number of a summary to `digits` decimals (for printing and JSON). */
export function rounded(summary: LatencySummary, digits = 2): LatencySummary {
  const round = (value: number) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);
  return {
    count: summary.count,
    p50: round(summary.p50),
    p95: round(summary.p95),
    p99: round(summary.p99),
    max: round(summary.max),
    mean: round(summary.mean),
  };
}

/** A growable Float64Array: millions of samples without boxing each number. */
export class Samples {
  private values: Float64Array;
  private size = 0;

  /** `capacity`: how many samples are expected (room for more is made as they come). */
  constructor(capacity = 1024) {
    this.values = new Float64Array(Math.max(16, capacity));
  }

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = value;
  }

  toArray(): Float64Array {
    return this.values.slice(0, this.size);
  }

  summary(): LatencySummary {
    return summarize(this.values.subarray(0, this.size));
  }
}

/** One bin of a timeline: the samples (latencies, or a figure read now and then) that fell in [fromS, fromS + bin). */
export interface TimelineBin {
  fromS: number;
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Latencies over time (is a tail periodic or spread?), or a figure sampled now and then (when did a
 * resident set peak?): the samples binned by when they happened, `atMs` from the window's start, in
 * bins of `binMs`; a bin without samples is kept (count 0, NaN). Samples before 0, and samples that
 * could not be read (NaN), are left out; the last bin is the one holding the latest sample.
 */
export function timeline(atMs: ArrayLike<number>, valueMs: ArrayLike<number>, binMs: number): TimelineBin[] {
  if (!(binMs > 0)) throw new RangeError(`bin must be positive, got ${binMs}`);
  const bins: number[][] = [];
  for (let i = 0; i < atMs.length; i++) {
    const at = atMs[i] as number;
    const value = valueMs[i] as number;
    if (!(at >= 0) || Number.isNaN(value)) continue;
    const index = Math.floor(at / binMs);
    while (bins.length <= index) bins.push([]);
    (bins[index] as number[]).push(value);
  }
  return bins.map((values, index) => {
    const summary = summarize(values);
    return {
      fromS: (index * binMs) / 1000,
      count: summary.count,
      p50: Number(summary.p50.toFixed(2)),
      p99: Number(summary.p99.toFixed(2)),
      max: Number(summary.max.toFixed(2)),
    };
  });
}
