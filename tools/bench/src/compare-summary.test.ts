import { compareRuns, formatComparison, median, type ComparedPhase } from './compare-summary';
import { dashboardsProcessName } from './process-stats';

const latency = (p50: number, p99: number) => ({ count: 100, p50, p95: p99, p99, max: p99, mean: p50 });

/** A phase's result as compare-summary reads it: Kickstand's process with its main thread, the sandbox and the generator. */
function phase(figures: {
  ackP99: number;
  replyP99: number;
  ownerMs: number;
  kickstandMs: number;
  busy: number;
  rss: number;
  dashboardsP99?: number;
}): ComparedPhase {
  const usage = (name: string, cpuMsPerMessage: number, peakRssMb: number, mainMs: number) => ({
    name,
    pid: 1,
    cpuSeconds: 1,
    systemCpuSeconds: 0,
    switches: { sleeps: 0, preemptions: 0 },
    ioCalls: { reads: 0, writes: 0 },
    cores: 1,
    peakRssMb,
    rssMb: peakRssMb,
    cpuMsPerMessage,
    systemCpuMsPerMessage: 0,
    sleepsPerMessage: 0,
    preemptionsPerMessage: 0,
    readCallsPerMessage: 0,
    writeCallsPerMessage: 0,
    threads: [
      { tid: 1, isMain: true, cpuSeconds: 1, cpuMsPerMessage: mainMs },
      { tid: 2, isMain: false, cpuSeconds: 1, cpuMsPerMessage: cpuMsPerMessage - mainMs },
    ],
  });
  return {
    name: 'latency',
    ackLatencyMs: latency(1, figures.ackP99),
    replies: {
      commands: 10,
      expected: 10,
      cooldownSkipped: 0,
      received: 10,
      answeredDespiteCooldown: 0,
      latencyMs: latency(5, figures.replyP99),
    },
    ...(figures.dashboardsP99 === undefined
      ? {}
      : {
          dashboards: {
            sockets: 10,
            expected: 10,
            received: 10,
            latencyMs: latency(3, figures.dashboardsP99),
            disconnects: 0,
          },
        }),
    errors: {
      total: 0,
      byStatus: {},
      transport: 0,
      transportSamples: [],
      notSent: 0,
      missingReplies: 0,
      duplicateReplies: 0,
      missingDashboardMessages: 0,
    },
    processes: [
      usage('kickstand', figures.kickstandMs, figures.rss, figures.ownerMs),
      usage('kick-sandbox (Kick)', 0.5, 200, 0.3),
      usage('generator', 0.1, 150, 0.1),
      ...(figures.dashboardsP99 === undefined ? [] : [usage(dashboardsProcessName(10), 0.07, 108, 0.07)]),
    ],
    machine: { cores: 2, busyCores: figures.busy, otherCores: 0 },
  };
}

describe('bench:compare summary', () => {
  const pairs = [
    {
      other: phase({ ackP99: 7, replyP99: 44, ownerMs: 0.523, kickstandMs: 0.875, busy: 1.44, rss: 257 }),
      self: phase({ ackP99: 11.9, replyP99: 116, ownerMs: 0.473, kickstandMs: 0.89, busy: 1.49, rss: 266 }),
    },
    {
      other: phase({ ackP99: 13.3, replyP99: 140, ownerMs: 0.55, kickstandMs: 0.925, busy: 1.55, rss: 255 }),
      self: phase({ ackP99: 23.5, replyP99: 244, ownerMs: 0.553, kickstandMs: 1.036, busy: 1.81, rss: 269 }),
    },
    {
      other: phase({ ackP99: 11.7, replyP99: 238, ownerMs: 0.592, kickstandMs: 0.997, busy: 1.66, rss: 252 }),
      self: phase({ ackP99: 20, replyP99: 168, ownerMs: 0.553, kickstandMs: 1.026, busy: 1.72, rss: 269 }),
    },
  ];

  test('when three pairs are compared, then each figure has its runs in order, both medians and the difference within each pair', () => {
    const rows = compareRuns(pairs);

    const reply = rows.find((row) => row.label === 'reply p99 (ms)');
    expect(reply).toEqual({
      label: 'reply p99 (ms)',
      other: [44, 140, 238],
      self: [116, 244, 168],
      otherMedian: 140,
      selfMedian: 168,
      differences: [72, 104, -70],
    });
    expect(rows.find((row) => row.label === '  of it its main thread')?.self).toEqual([0.473, 0.553, 0.553]);
    expect(rows.find((row) => row.label === 'sandbox CPU ms a message')?.otherMedian).toBe(0.5);
    expect(rows.find((row) => row.label === 'Kickstand peak RSS (MB)')?.differences).toEqual([9, 14, 17]);
  });

  test("when the dashboards' clients ran, then their process is not counted as Kickstand's", () => {
    const withDashboards = [
      {
        other: phase({
          ackP99: 7,
          replyP99: 44,
          ownerMs: 0.5,
          kickstandMs: 0.8,
          busy: 1.2,
          rss: 250,
          dashboardsP99: 30,
        }),
        self: phase({
          ackP99: 6,
          replyP99: 40,
          ownerMs: 0.5,
          kickstandMs: 0.9,
          busy: 1.2,
          rss: 270,
          dashboardsP99: 20,
        }),
      },
    ];
    const rows = compareRuns(withDashboards);
    expect(rows.find((row) => row.label === 'Kickstand peak RSS (MB)')).toMatchObject({ other: [250], self: [270] });
    expect(rows.find((row) => row.label === 'Kickstand CPU ms a message')).toMatchObject({ other: [0.8], self: [0.9] });
  });

  test('when no run has dashboards, then there is no dashboards row; when some have, the others show as missing', () => {
    expect(compareRuns(pairs).map((row) => row.label)).not.toContain('dashboards p99 (ms)');

    const mixed = [
      {
        other: pairs[0]!.other,
        self: phase({
          ackP99: 1,
          replyP99: 2,
          ownerMs: 0.5,
          kickstandMs: 0.9,
          busy: 1.5,
          rss: 250,
          dashboardsP99: 121,
        }),
      },
    ];
    const row = compareRuns(mixed).find((candidate) => candidate.label === 'dashboards p99 (ms)');
    expect(row).toMatchObject({
      other: [undefined],
      self: [121],
      otherMedian: undefined,
      selfMedian: 121,
      differences: [undefined],
    });
  });

  test('when a run measured nothing (it fell behind: null percentiles in its JSON), then its figures are missing, not 0', () => {
    const stopped = JSON.parse(
      JSON.stringify(
        phase({ ackP99: Number.NaN, replyP99: Number.NaN, ownerMs: 1.1, kickstandMs: 1.5, busy: 1.9, rss: 216 }),
      ),
    ) as ComparedPhase;
    expect(stopped.ackLatencyMs.p99).toBeNull();

    const rows = compareRuns([{ other: stopped, self: pairs[0]!.self }]);

    expect(rows.find((row) => row.label === 'ack p99 (ms)')).toMatchObject({
      other: [undefined],
      self: [11.9],
      otherMedian: undefined,
      differences: [undefined],
    });
    expect(rows.find((row) => row.label === 'Kickstand CPU ms a message')?.differences).toEqual([0.89 - 1.5]);
  });

  test("when the runs are distributed, then Kickstand's CPU and RSS add up its processes, not the engines', and there is no main-thread row", () => {
    const distributed = (gatewayMs: number): ComparedPhase => {
      const single = phase({ ackP99: 5, replyP99: 20, ownerMs: 0.2, kickstandMs: 0.4, busy: 1.5, rss: 100 });
      const [kickstand, sandbox, generator] = single.processes as [
        ComparedPhase['processes'][number],
        ComparedPhase['processes'][number],
        ComparedPhase['processes'][number],
      ];
      return {
        ...single,
        processes: [
          { ...kickstand, name: 'gateway', cpuMsPerMessage: gatewayMs },
          { ...kickstand, name: 'kick-link' },
          sandbox,
          generator,
          { ...kickstand, name: 'kafka', cpuMsPerMessage: 5, peakRssMb: 900 },
          { ...kickstand, name: 'secantusdb', cpuMsPerMessage: 5, peakRssMb: 900 },
        ],
      };
    };

    const rows = compareRuns([{ other: distributed(0.3), self: distributed(0.2) }]);

    const cpu = rows.find((row) => row.label === 'Kickstand CPU ms a message');
    expect(cpu?.other[0]).toBeCloseTo(0.7);
    expect(cpu?.self[0]).toBeCloseTo(0.6);
    expect(rows.find((row) => row.label === 'Kickstand peak RSS (MB)')?.other).toEqual([200]);
    expect(rows.map((row) => row.label)).not.toContain('  of it its main thread');
  });

  test('when the table is printed, then each row shows the runs, the medians and the signed differences', () => {
    const lines = formatComparison('latency', compareRuns(pairs), { other: 'main', self: 'relayed' });

    expect(lines[0]).toBe(
      'phase latency: 3 pairs of runs (other: main; this: relayed), other first in odd pairs, this in even',
    );
    expect(lines[1]).toMatch(
      /^figure +other \(each run\) +this \(each run\) +median: other → this +this − other, per pair$/,
    );
    const reply = lines.find((line) => line.startsWith('reply p99 (ms)'));
    expect(reply?.split(/ {2,}/)).toEqual(['reply p99 (ms)', '44 140 238', '116 244 168', '140 → 168', '+72 +104 -70']);
    const owner = lines.find((line) => line.startsWith('  of it its main thread'));
    expect(owner?.trim().split(/ {2,}/)).toEqual([
      'of it its main thread',
      '0.523 0.55 0.592',
      '0.473 0.553 0.553',
      '0.55 → 0.553',
      '-0.05 +0.003 -0.039',
    ]);
  });

  test('when the number of values is even, then the median is the mean of the middle two; missing values are left out', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([undefined, 5, Number.NaN])).toBe(5);
    expect(median([])).toBeUndefined();
  });
});
