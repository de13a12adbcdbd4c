import { Registry } from 'prom-client';
import { createInProcessBus } from '../bus/in-process-bus';
import { testTopics } from '../bus/bus.contract';
import { eventually } from '../testing/eventually';
import { histogramTotals } from '../testing/histogram-totals';
import { instrumentBus } from './instrument-bus';
import { processMetrics } from './metrics';

const valueOf = async (registry: Registry, name: string, labels: Record<string, string>) => {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const sample = (metric?.values ?? []).find((v) =>
    Object.entries(labels).every(([k, value]) => v.labels[k] === value),
  );
  return sample?.value ?? 0;
};

/** An in-process bus giving each message 2 attempts, 1–2 ms apart, instrumented as `service`. */
function instrumentedWithRetries(service: string) {
  const metrics = processMetrics();
  const inner = createInProcessBus({
    topics: testTopics,
    retry: { maxAttempts: 2, initialBackoffMs: 1, maxBackoffMs: 2 },
  });
  return { metrics, bus: instrumentBus(inner, service, metrics, 2) };
}

describe('instrumentBus', () => {
  test('when messages are published, handled, failed and dead-lettered, then each is counted once', async () => {
    const { metrics, bus } = instrumentedWithRetries('svc-test');
    await bus.subscribe('test.count', 'g-ok', async () => undefined);
    await bus.subscribe('test.count', 'g-bad', async () => {
      throw new Error('always');
    });
    await bus.publish('test.count', 'k', { value: 1 });

    const labels = { service: 'svc-test', topic: 'test.count' };
    await eventually(async () => {
      expect(
        await valueOf(metrics.registry, 'kickstand_bus_messages_dead_lettered_total', { ...labels, group: 'g-bad' }),
      ).toBe(1);
    });
    expect(await valueOf(metrics.registry, 'kickstand_bus_messages_published_total', labels)).toBe(1);
    expect(await valueOf(metrics.registry, 'kickstand_bus_messages_consumed_total', { ...labels, group: 'g-ok' })).toBe(
      1,
    );
    expect(await valueOf(metrics.registry, 'kickstand_bus_handler_failures_total', { ...labels, group: 'g-bad' })).toBe(
      2,
    );
    await bus.stop();
  });

  test('when two services publish on two topics, then each (service, topic) has its own count', async () => {
    const metrics = processMetrics();
    const inner = createInProcessBus({ topics: testTopics });
    const one = instrumentBus(inner, 'svc-one', metrics, 2);
    const two = instrumentBus(inner, 'svc-two', metrics, 2);
    await one.publish('test.count', 'k', { value: 1 });
    await one.publish('test.count', 'k', { value: 2 });
    await one.publish('test.greeting', 'k', {});
    await two.publish('test.count', 'k', { value: 3 });

    const published = (service: string, topic: string) =>
      valueOf(metrics.registry, 'kickstand_bus_messages_published_total', { service, topic });
    expect(await published('svc-one', 'test.count')).toBe(2);
    expect(await published('svc-one', 'test.greeting')).toBe(1);
    expect(await published('svc-two', 'test.count')).toBe(1);
    expect(await published('svc-two', 'test.greeting')).toBe(0);
    await inner.stop();
  });

  test('when the in-process bus delivers a message to two groups, then each group observes its wait once, and a retry adds none', async () => {
    const { metrics, bus } = instrumentedWithRetries('svc-wait');
    const seen: (number | undefined)[] = [];
    let calls = 0;
    await bus.subscribe('test.count', 'g-one', async (_message, info) => {
      seen.push(info.publishedAtMs);
    });
    await bus.subscribe('test.count', 'g-flaky', async () => {
      calls++;
      if (calls === 1) throw new Error('once');
    });
    await bus.publish('test.count', 'k', { value: 1 });

    await eventually(async () => {
      expect(
        await valueOf(metrics.registry, 'kickstand_bus_messages_consumed_total', {
          service: 'svc-wait',
          group: 'g-flaky',
        }),
      ).toBe(1);
    });
    expect(seen).toHaveLength(1);
    expect(typeof seen[0]).toBe('number');
    const waits = async (group: string) =>
      (await histogramTotals(metrics.registry, 'kickstand_bus_wait_seconds', { service: 'svc-wait', group })).count;
    expect(await waits('g-one')).toBe(1);
    expect(await waits('g-flaky')).toBe(1);
    await bus.stop();
  });

  test('when a handler throws before it returns a promise, then it fails as one that rejects: counted, retried, dead-lettered', async () => {
    const { metrics, bus } = instrumentedWithRetries('svc-sync-throw');
    let calls = 0;
    const throwsAtOnce = (): Promise<void> => {
      calls++;
      throw new Error('before any promise');
    };
    await bus.subscribe('test.count', 'g-sync', throwsAtOnce);
    await bus.publish('test.count', 'k', { value: 1 });

    const labels = { service: 'svc-sync-throw', topic: 'test.count', group: 'g-sync' };
    await eventually(async () => {
      expect(await valueOf(metrics.registry, 'kickstand_bus_messages_dead_lettered_total', labels)).toBe(1);
    });
    expect(calls).toBe(2);
    expect(await valueOf(metrics.registry, 'kickstand_bus_handler_failures_total', labels)).toBe(2);
    expect(await valueOf(metrics.registry, 'kickstand_bus_messages_consumed_total', labels)).toBe(0);
    await bus.stop();
  });
});
