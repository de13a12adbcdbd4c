import {
  Counter,
  Histogram,
  type CounterConfiguration,
  type HistogramConfiguration,
  type LabelValues,
} from 'prom-client';

/*
 * prom-client hashes the labels of a child bound with `labels()` again on every `inc` and
 * `observe` (a string built from them, the label names checked, an object allocated; a histogram
 * also looks its bucket up by a number turned into a string): ~4 % of the single-machine owner
 * thread at 1,000 msg/s, for ~20 counts a chat line (docs/performance.md, "The owner's per-line
 * cost, another round"). These two keep what such a child counts in plain numbers it holds, and
 * give prom-client the same names, labels and values when /metrics is scraped.
 */

type Labels<T extends string> = LabelValues<T>;

/** The label names of a metric, checked once when a child is bound (prom-client checks them on every count). */
function checkLabels(metric: string, names: readonly string[], labels: object): void {
  for (const name of Object.keys(labels)) {
    if (!names.includes(name))
      throw new Error(`${metric}: label "${name}" is not one of its labels (${names.join(', ')})`);
  }
}

interface PendingCount<T extends string> {
  labels: Labels<T>;
  /** Counted since the last scrape, not yet added to the counter. */
  value: number;
  /** Its series is in the counter: its first count went there at once, as prom-client's children do. */
  isListed: boolean;
}

/**
 * A Counter whose children (`labels({...})`) add to a number of their own, which is added to the
 * counter when it is read (`get`: a scrape). Counting through the counter itself (`inc(labels)`)
 * is prom-client's, as before. A label set counts the same either way: both end in one series.
 */
export class BoundLabelsCounter<T extends string = string> extends Counter<T> {
  /** Assigned after prom-client's constructor, which calls `reset` before it exists. */
  private pending: PendingCount<T>[] | undefined = [];

  constructor(config: CounterConfiguration<T>) {
    super(config);
  }

  override labels(...args: [Labels<T>] | string[]): Counter.Internal {
    const [first] = args;
    if (typeof first !== 'object') return super.labels(...(args as string[]));
    const { name, labelNames } = this as unknown as { name: string; labelNames: string[] };
    checkLabels(name, labelNames, first);
    const count: PendingCount<T> = { labels: first, value: 0, isListed: false };
    this.pending?.push(count);
    return {
      inc: (value = 1) => {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        if (value < 0) throw new Error('It is not possible to decrease a counter');
        if (count.isListed) {
          count.value += value;
        } else {
          // the series begins where prom-client would begin it (its place and labels at /metrics)
          count.isListed = true;
          this.inc(count.labels, value);
        }
      },
    };
  }

  override async get(): ReturnType<Counter<T>['get']> {
    for (const count of this.pending ?? []) {
      // a child that never counted makes no series, as with prom-client's own children
      if (count.value === 0) continue;
      const value = count.value;
      count.value = 0;
      this.inc(count.labels, value);
    }
    return super.get();
  }

  override reset(): void {
    for (const count of this.pending ?? []) {
      count.value = 0;
      count.isListed = false;
    }
    super.reset();
  }
}

/** One label set's counts: per bucket (not cumulative; past the last bound only in `count`), sum, count. */
interface Series<T extends string> {
  labels: Labels<T>;
  buckets: number[];
  sum: number;
  count: number;
  /** Printed at /metrics: from its first observation on (or `zero`), until a `remove` or `reset`. */
  isListed: boolean;
}

/** The value lines of a histogram, in the shape prom-client's registry prints them. */
interface HistogramValue<T extends string> {
  labels: { le?: number | '+Inf' };
  sharedLabels: Labels<T>;
  value: number;
  metricName: string;
  exemplar?: null;
}

const clear = <T extends string>(series: Series<T>): void => {
  series.buckets.fill(0);
  series.sum = 0;
  series.count = 0;
  series.isListed = false;
};

/**
 * A Histogram that keeps its series itself: a child (`labels({...})`) holds its series, so an
 * observation is a bucket found among the bounds and three additions. `observe(labels, value)`
 * finds the series by its labels first. Scraped, it prints what prom-client's Histogram prints
 * for the same observations (the same lines, order and values).
 */
export class BoundLabelsHistogram<T extends string = string> extends Histogram<T> {
  /** Every label set's series, once made (a child keeps its own: one series per label set, ever). */
  private series: Map<string, Series<T>> | undefined = new Map();
  /** The series printed, in the order prom-client prints them: of their first observation. */
  private listed: Series<T>[] = [];
  private readonly bounds: readonly number[];
  private readonly names: readonly string[];
  private readonly sortedNames: readonly string[];

  constructor(config: HistogramConfiguration<T>) {
    super(config);
    const self = this as unknown as { upperBounds: number[]; labelNames: string[] };
    this.bounds = [...self.upperBounds];
    this.names = [...self.labelNames];
    this.sortedNames = [...self.labelNames].sort();
    // prom-client sets `observe` on the instance in its constructor: it is replaced here
    this.observe = ((labelsOrValue: Labels<T> | number, value?: number) => {
      const labels = typeof labelsOrValue === 'number' ? {} : labelsOrValue;
      this.observeIn(
        this.seriesOf(labels),
        labels,
        typeof labelsOrValue === 'number' ? labelsOrValue : (value as number),
      );
    }) as Histogram<T>['observe'];
  }

  override labels(...args: [Labels<T>] | string[]): Histogram.Internal<T> {
    const labels = this.labelsOf(args);
    const series = this.seriesOf(labels);
    return {
      observe: (value: number) => this.observeIn(series, labels, value),
      startTimer: () => this.timerOf(series, labels),
    };
  }

  override startTimer(labels: Labels<T> = {}): (labels?: Labels<T>) => number {
    const start = process.hrtime.bigint();
    return (endLabels?: Labels<T>) => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const all = { ...labels, ...endLabels };
      this.observeIn(this.seriesOf(all), all, seconds);
      return seconds;
    };
  }

  override zero(labels: Labels<T>): void {
    const series = this.seriesOf(labels);
    const wasListed = series.isListed;
    clear(series);
    if (wasListed) series.isListed = true;
    else this.list(series, labels);
    series.labels = labels;
  }

  override remove(...args: [Labels<T>] | string[]): void {
    const series = this.seriesOf(this.labelsOf(args));
    clear(series);
    this.listed = this.listed.filter((other) => other !== series);
  }

  override reset(): void {
    for (const series of this.series?.values() ?? []) clear(series);
    this.listed = [];
  }

  /** What prom-client's registry prints (its Histogram's own method of this name; `get` builds on it). */
  async getForPromString(): Promise<{
    name: string;
    help: string;
    type: string;
    values: HistogramValue<T>[];
    aggregator: string;
  }> {
    const self = this as unknown as {
      name: string;
      help: string;
      type: string;
      aggregator: string;
      collect?: () => unknown;
    };
    if (self.collect) await self.collect();
    const bucketName = `${self.name}_bucket`;
    const values: HistogramValue<T>[] = [];
    for (const series of this.listed) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.buckets[index] ?? 0;
        values.push({
          labels: { le: bound },
          sharedLabels: series.labels,
          value: cumulative,
          metricName: bucketName,
          exemplar: null,
        });
      });
      values.push(
        {
          labels: { le: '+Inf' },
          sharedLabels: series.labels,
          value: series.count,
          metricName: bucketName,
          exemplar: null,
        },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${self.name}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${self.name}_count` },
      );
    }
    return { name: self.name, help: self.help, type: self.type, values, aggregator: self.aggregator };
  }

  private observeIn(series: Series<T>, labels: Labels<T>, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const { bounds } = this;
    for (let index = 0; index < bounds.length; index += 1) {
      if (value <= (bounds[index] as number)) {
        series.buckets[index] = (series.buckets[index] as number) + 1;
        break;
      }
    }
    series.sum += value;
    series.count += 1;
    if (!series.isListed) this.list(series, labels);
  }

  private timerOf(series: Series<T>, labels: Labels<T>): (labels?: Labels<T>) => void {
    const start = process.hrtime.bigint();
    return (endLabels?: Labels<T>) => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const all = endLabels ? { ...labels, ...endLabels } : labels;
      this.observeIn(endLabels ? this.seriesOf(all) : series, all, seconds);
    };
  }

  /** Lists it with the labels it is first observed by (prom-client prints those). */
  private list(series: Series<T>, labels: Labels<T>): void {
    series.isListed = true;
    series.labels = labels;
    this.listed.push(series);
  }

  /** `labels('a', 'b')` as `labels({ first: 'a', second: 'b' })`. */
  private labelsOf(args: [Labels<T>] | string[]): Labels<T> {
    const [first] = args;
    if (typeof first === 'object') return first;
    if (args.length !== this.names.length) {
      const { name } = this as unknown as { name: string };
      throw new Error(`${name}: ${args.length} label values given for ${this.names.length} labels`);
    }
    return Object.fromEntries(this.names.map((name, index) => [name, args[index]])) as Labels<T>;
  }

  /** The series of these labels (made, unlisted, the first time). The key is prom-client's: sorted names. */
  private seriesOf(labels: Labels<T>): Series<T> {
    const { name } = this as unknown as { name: string };
    checkLabels(name, this.names, labels);
    let key = '';
    for (const label of this.sortedNames) {
      const value = (labels as Record<string, string | number | undefined>)[label];
      if (value !== undefined) key += `${label}:${value},`;
    }
    const all = (this.series ??= new Map());
    let series = all.get(key);
    if (!series) {
      series = { labels, buckets: this.bounds.map(() => 0), sum: 0, count: 0, isListed: false };
      all.set(key, series);
    }
    return series;
  }
}
