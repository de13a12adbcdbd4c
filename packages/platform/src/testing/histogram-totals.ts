import type { Registry } from 'prom-client';

/** A histogram series' running totals: seconds observed (for a seconds histogram) and observations. */
export interface HistogramTotals {
  sum: number;
  count: number;
}

/**
 * The sum and count of histogram `name`'s series whose labels include `labels`, as `registry`
 * holds them now (0 and 0 before the series' first observation). Tests read them before and after
 * what they do, since the process-wide registry keeps what earlier tests observed.
 */
export async function histogramTotals(
  registry: Registry,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): Promise<HistogramTotals> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const total = (suffix: 'sum' | 'count') =>
    (metric?.values ?? []).find(
      (v) =>
        (v as { metricName?: string }).metricName === `${name}_${suffix}` &&
        Object.entries(labels).every(([label, value]) => v.labels[label] === value),
    )?.value ?? 0;
  return { sum: total('sum'), count: total('count') };
}
