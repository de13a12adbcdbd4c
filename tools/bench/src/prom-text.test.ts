import {
  bucketQuantile,
  gaugeAt,
  histogramAt,
  histogramDelta,
  labelValues,
  parsePromText,
  stageSummary,
} from './prom-text';

const scrape = (a: number[], b: number[]) => `# HELP kickstand_reply_stage_seconds Time of each stage
# TYPE kickstand_reply_stage_seconds histogram
kickstand_reply_stage_seconds_bucket{le="0.001",service="kick-link",stage="intake"} ${a[0]}
kickstand_reply_stage_seconds_bucket{le="0.01",service="kick-link",stage="intake"} ${a[1]}
kickstand_reply_stage_seconds_bucket{le="0.1",service="kick-link",stage="intake"} ${a[2]}
kickstand_reply_stage_seconds_bucket{le="+Inf",service="kick-link",stage="intake"} ${a[3]}
kickstand_reply_stage_seconds_sum{service="kick-link",stage="intake"} ${a[4]}
kickstand_reply_stage_seconds_count{service="kick-link",stage="intake"} ${a[3]}
kickstand_reply_stage_seconds_bucket{le="0.001",service="kick-link",stage="kick-post"} ${b[0]}
kickstand_reply_stage_seconds_bucket{le="0.01",service="kick-link",stage="kick-post"} ${b[1]}
kickstand_reply_stage_seconds_bucket{le="0.1",service="kick-link",stage="kick-post"} ${b[2]}
kickstand_reply_stage_seconds_bucket{le="+Inf",service="kick-link",stage="kick-post"} ${b[3]}
kickstand_reply_stage_seconds_sum{service="kick-link",stage="kick-post"} ${b[4]}
kickstand_reply_stage_seconds_count{service="kick-link",stage="kick-post"} ${b[3]}

# HELP nodejs_eventloop_lag_p99_seconds The 99th percentile of the recorded event loop delays.
# TYPE nodejs_eventloop_lag_p99_seconds gauge
nodejs_eventloop_lag_p99_seconds 0.0625
`;

describe('parsePromText', () => {
  test('when a scrape has comments, labels and +Inf, then each sample line becomes name, labels and value', () => {
    const samples = parsePromText(
      '# TYPE x counter\nx_total{topic="chat.received",group="realtime"} 12\n\nup 1 1700000000000\ny_bucket{le="+Inf"} 3\n',
    );
    expect(samples).toEqual([
      { name: 'x_total', labels: { topic: 'chat.received', group: 'realtime' }, value: 12 },
      { name: 'up', labels: {}, value: 1 },
      { name: 'y_bucket', labels: { le: '+Inf' }, value: 3 },
    ]);
  });

  test('when a label value holds an escaped quote or backslash, then it is unescaped', () => {
    expect(parsePromText('m{a="say \\"hi\\"",b="c\\\\d"} 2')).toEqual([
      { name: 'm', labels: { a: 'say "hi"', b: 'c\\d' }, value: 2 },
    ]);
  });
});

describe('histogram windows', () => {
  const before = parsePromText(scrape([10, 20, 20, 20, 0.05], [0, 5, 10, 10, 0.3]));
  const after = parsePromText(scrape([110, 200, 220, 220, 0.6], [0, 5, 110, 110, 5.3]));

  test('when two scrapes are taken, then the window is the difference of their cumulative buckets, count and sum', () => {
    const window = histogramDelta(
      histogramAt(before, 'kickstand_reply_stage_seconds', { stage: 'intake' }),
      histogramAt(after, 'kickstand_reply_stage_seconds', { stage: 'intake' }),
    );
    expect(window).toEqual({
      buckets: [
        { le: 0.001, count: 100 },
        { le: 0.01, count: 180 },
        { le: 0.1, count: 200 },
        { le: Number.POSITIVE_INFINITY, count: 200 },
      ],
      count: 200,
      sum: expect.closeTo(0.55, 10) as number,
    });
  });

  test('when no label is asked for, then the series are summed', () => {
    expect(histogramAt(after, 'kickstand_reply_stage_seconds').count).toBe(330);
  });

  test('when a quantile falls inside a bucket, then it is linear between the bucket bounds (histogram_quantile)', () => {
    const window = {
      buckets: [
        { le: 0.001, count: 100 },
        { le: 0.01, count: 180 },
        { le: 0.1, count: 200 },
        { le: Number.POSITIVE_INFINITY, count: 200 },
      ],
      count: 200,
      sum: 1,
    };
    expect(bucketQuantile(window, 0.5)).toBeCloseTo(0.001, 12); // rank 100: the top of the first bucket
    expect(bucketQuantile(window, 0.25)).toBeCloseTo(0.0005, 12); // rank 50 of 100 in [0, 1 ms]
    expect(bucketQuantile(window, 0.7)).toBeCloseTo(0.001 + 0.009 * (40 / 80), 12);
    expect(bucketQuantile(window, 0.95)).toBeCloseTo(0.01 + 0.09 * (10 / 20), 12);
  });

  test('when the rank falls in the +Inf bucket, then the highest finite bound is the answer', () => {
    const window = {
      buckets: [
        { le: 0.1, count: 90 },
        { le: Number.POSITIVE_INFINITY, count: 100 },
      ],
      count: 100,
      sum: 30,
    };
    expect(bucketQuantile(window, 0.99)).toBe(0.1);
  });

  test('when the window is empty, then every quantile and the mean are NaN and the count 0', () => {
    const empty = {
      buckets: [
        { le: 0.1, count: 0 },
        { le: Number.POSITIVE_INFINITY, count: 0 },
      ],
      count: 0,
      sum: 0,
    };
    expect(stageSummary(empty)).toEqual({ count: 0, meanMs: NaN, p50Ms: NaN, p95Ms: NaN, p99Ms: NaN });
  });

  test('when a window is summarised, then the mean is sum / count and the quantiles are in milliseconds', () => {
    const window = histogramDelta(
      histogramAt(before, 'kickstand_reply_stage_seconds', { stage: 'kick-post' }),
      histogramAt(after, 'kickstand_reply_stage_seconds', { stage: 'kick-post' }),
    );
    expect(stageSummary(window)).toEqual({ count: 100, meanMs: 50, p50Ms: 55, p95Ms: 95.5, p99Ms: 99.1 });
  });

  test('when stages and gauges are asked for, then the label values and the gauge value come back', () => {
    expect(labelValues(after, 'kickstand_reply_stage_seconds', 'stage')).toEqual(['intake', 'kick-post']);
    expect(gaugeAt(after, 'nodejs_eventloop_lag_p99_seconds')).toBe(0.0625);
    expect(gaugeAt(after, 'absent')).toBeNaN();
  });
});
