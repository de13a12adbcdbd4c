import {
  gaugeAt,
  histogramAt,
  histogramDelta,
  labelValues,
  parsePromText,
  stageSummary,
  type PromSample,
  type StageSummary,
} from './prom-text';

/**
 * Where a reply's time goes inside Kickstand over a measured window, from its own metrics
 * (single-machine mode's owner thread: every service and the bus; METRICS_PORT), scraped at the
 * window's start and once its replies are in. See docs/performance.md, "Where the reply latency goes".
 */
export interface KickstandWindowMetrics {
  /** kickstand_command_latency_seconds: webhook received → chat.send published (bot-runner). */
  commandLatency: StageSummary;
  /** kickstand_reply_stage_seconds by stage (hand-off, intake, bot-runner, to-posted, kick-queue, kick-post, received-to-posted). */
  stages: Record<string, StageSummary>;
  /** kickstand_bus_wait_seconds by "<topic> → <group>" (only those with messages in the window). */
  busWait: Record<string, StageSummary>;
  /** The owner thread's event-loop delay over the window (prom-client's monitor, reset at each scrape). */
  eventLoopDelayMs: { mean: number; p50: number; p99: number; max: number };
  /** Garbage collection in the owner thread over the window (nodejs_gc_duration_seconds). */
  gc: { seconds: number; collections: number; byKind: Record<string, { seconds: number; collections: number }> };
}

export async function scrapeMetrics(url: string): Promise<PromSample[]> {
  // generous: an owner thread far behind answers late, and the figures are wanted most then
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parsePromText(await response.text());
}

const toMs = (seconds: number) => (Number.isFinite(seconds) ? Number((seconds * 1000).toFixed(2)) : Number.NaN);

function windowOf(
  before: readonly PromSample[],
  after: readonly PromSample[],
  name: string,
  wanted: Record<string, string>,
) {
  return histogramDelta(histogramAt(before, name, wanted), histogramAt(after, name, wanted));
}

/** The window between two scrapes of the same process. */
export function kickstandWindow(before: readonly PromSample[], after: readonly PromSample[]): KickstandWindowMetrics {
  const stages: Record<string, StageSummary> = {};
  for (const stage of labelValues(after, 'kickstand_reply_stage_seconds', 'stage')) {
    stages[stage] = stageSummary(windowOf(before, after, 'kickstand_reply_stage_seconds', { stage }));
  }
  const busWait: Record<string, StageSummary> = {};
  const pairs = new Set<string>();
  for (const s of after) {
    if (s.name === 'kickstand_bus_wait_seconds_count') pairs.add(`${s.labels.topic} → ${s.labels.group}`);
  }
  for (const pair of [...pairs].sort()) {
    const [topic, group] = pair.split(' → ') as [string, string];
    const summary = stageSummary(windowOf(before, after, 'kickstand_bus_wait_seconds', { topic, group }));
    if (summary.count > 0) busWait[pair] = summary;
  }
  const byKind: KickstandWindowMetrics['gc']['byKind'] = {};
  for (const kind of labelValues(after, 'nodejs_gc_duration_seconds', 'kind')) {
    const window = windowOf(before, after, 'nodejs_gc_duration_seconds', { kind });
    if (window.count > 0) byKind[kind] = { seconds: Number(window.sum.toFixed(3)), collections: window.count };
  }
  const gcAll = windowOf(before, after, 'nodejs_gc_duration_seconds', {});
  return {
    commandLatency: stageSummary(windowOf(before, after, 'kickstand_command_latency_seconds', {})),
    stages,
    busWait,
    eventLoopDelayMs: {
      mean: toMs(gaugeAt(after, 'nodejs_eventloop_lag_mean_seconds')),
      p50: toMs(gaugeAt(after, 'nodejs_eventloop_lag_p50_seconds')),
      p99: toMs(gaugeAt(after, 'nodejs_eventloop_lag_p99_seconds')),
      max: toMs(gaugeAt(after, 'nodejs_eventloop_lag_max_seconds')),
    },
    gc: { seconds: Number(gcAll.sum.toFixed(3)), collections: gcAll.count, byKind },
  };
}
