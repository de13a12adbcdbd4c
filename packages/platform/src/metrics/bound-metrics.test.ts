import { Counter, Histogram, Registry } from 'prom-client';
import { BoundLabelsCounter, BoundLabelsHistogram } from './bound-metrics';

const buckets = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.1, 1];

/** The same metrics twice: prom-client's own, and these (each in a registry of its own). */
function pair() {
  const make = (bound: boolean) => {
    const registry = new Registry();
    const counterConfig = {
      name: 'test_messages_total',
      help: 'Messages',
      labelNames: ['service', 'topic', 'group'] as const,
      registers: [registry],
    };
    const histogramConfig = {
      name: 'test_stage_seconds',
      help: 'Stages',
      labelNames: ['service', 'stage'] as const,
      buckets,
      registers: [registry],
    };
    return {
      registry,
      counter: bound ? new BoundLabelsCounter(counterConfig) : new Counter(counterConfig),
      histogram: bound ? new BoundLabelsHistogram(histogramConfig) : new Histogram(histogramConfig),
    };
  };
  return { prom: make(false), bound: make(true) };
}

type Metrics = ReturnType<typeof pair>['prom'];

/** Counts and observations as the product makes them: children bound once, and counts by labels. */
function countThrough({ counter, histogram }: Metrics): void {
  const consumed = counter.labels({ service: 'realtime', topic: 'chat.received', group: 'realtime' });
  const other = counter.labels({ service: 'games', topic: 'chat.received', group: 'games' });
  counter.labels({ service: 'auth', topic: 'never', group: 'never' }); // bound, never counted
  for (let n = 0; n < 5; n += 1) consumed.inc();
  other.inc(3);
  // the same label set, given in another order, through the counter itself
  counter.inc({ group: 'realtime', topic: 'chat.received', service: 'realtime' });
  const handOff = histogram.labels({ service: 'kick-link', stage: 'hand-off' });
  histogram.labels({ service: 'kick-link', stage: 'never' }); // bound, never observed
  for (const seconds of [0.0001, 0.0005, 0.00051, 0.003, 0.2, 1, 7.5, 0]) handOff.observe(seconds);
  histogram.observe({ service: 'bot-runner', stage: 'bot-runner' }, 0.004);
  histogram.observe({ stage: 'hand-off', service: 'kick-link' }, 0.05);
  histogram.labels('kick-link', 'kick-post').observe(0.0012);
}

describe('metrics whose children are bound to their labels', () => {
  test('when the same counts and observations are made, then /metrics prints exactly what prom-client prints', async () => {
    const { prom, bound } = pair();
    countThrough(prom);
    countThrough(bound);
    const expected = await prom.registry.metrics();
    expect(expected).toContain('test_messages_total{service="realtime",topic="chat.received",group="realtime"} 6');
    expect(expected).toContain('test_stage_seconds_bucket{le="0.0005",service="kick-link",stage="hand-off"} 3');
    expect(await bound.registry.metrics()).toBe(expected);
    expect(await bound.registry.getMetricsAsJSON()).toEqual(await prom.registry.getMetricsAsJSON());
  });

  test('when /metrics is scraped twice with counts between, then each count is in it once', async () => {
    const { prom, bound } = pair();
    countThrough(prom);
    countThrough(bound);
    await bound.registry.metrics();
    countThrough(prom);
    countThrough(bound);
    expect(await bound.registry.metrics()).toBe(await prom.registry.metrics());
  });

  test('when the metrics are reset, then what was counted before is gone and later counts start from 0', async () => {
    const { prom, bound } = pair();
    for (const metrics of [prom, bound]) {
      countThrough(metrics);
      metrics.registry.resetMetrics();
      metrics.counter.labels({ service: 'realtime', topic: 'chat.received', group: 'realtime' }).inc();
      metrics.histogram.observe({ service: 'kick-link', stage: 'intake' }, 0.002);
    }
    const expected = await prom.registry.metrics();
    expect(expected).toContain('test_messages_total{service="realtime",topic="chat.received",group="realtime"} 1');
    expect(expected).not.toContain('hand-off');
    expect(await bound.registry.metrics()).toBe(expected);
  });

  test('when a histogram series is zeroed or removed, then it is printed as prom-client prints it', async () => {
    const { prom, bound } = pair();
    for (const metrics of [prom, bound]) {
      countThrough(metrics);
      metrics.histogram.zero({ service: 'bot-runner', stage: 'bot-runner' });
      metrics.histogram.zero({ service: 'auth', stage: 'none-yet' });
      metrics.histogram.remove({ service: 'kick-link', stage: 'kick-post' });
    }
    expect(await bound.registry.metrics()).toBe(await prom.registry.metrics());
  });

  test('when a child is bound to a label the metric does not have, or counted by a bad value, then it throws', () => {
    const { bound } = pair();
    expect(() => bound.counter.labels({ service: 'a', channel: 'b' } as never)).toThrow(
      'test_messages_total: label "channel" is not one of its labels (service, topic, group)',
    );
    expect(() => bound.histogram.labels({ stage: 'x', channel: 'b' } as never)).toThrow('label "channel"');
    const child = bound.counter.labels({ service: 'a' });
    expect(() => child.inc(-1)).toThrow('It is not possible to decrease a counter');
    expect(() => child.inc(Number.NaN)).toThrow(TypeError);
    expect(() => bound.histogram.labels({ stage: 'x' }).observe(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });
});
