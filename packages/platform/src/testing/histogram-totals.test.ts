import { Histogram, Registry } from 'prom-client';
import { histogramTotals } from './histogram-totals';

describe('histogramTotals', () => {
  test('when a labelled series was observed, then its sum and count are read, and other series are not mixed in', async () => {
    // Arrange
    const registry = new Registry();
    const histogram = new Histogram({
      name: 'test_stage_seconds',
      help: 'a test histogram',
      labelNames: ['service', 'stage'],
      registers: [registry],
    });
    // Act
    histogram.observe({ service: 'kick-link', stage: 'kick-post' }, 0.25);
    histogram.observe({ service: 'kick-link', stage: 'kick-post' }, 0.5);
    histogram.observe({ service: 'kick-link', stage: 'kick-queue' }, 2);
    // Assert
    expect(await histogramTotals(registry, 'test_stage_seconds', { service: 'kick-link', stage: 'kick-post' })).toEqual(
      {
        sum: 0.75,
        count: 2,
      },
    );
    expect(await histogramTotals(registry, 'test_stage_seconds', { stage: 'intake' })).toEqual({ sum: 0, count: 0 });
    expect(await histogramTotals(registry, 'no_such_seconds')).toEqual({ sum: 0, count: 0 });
  });
});
