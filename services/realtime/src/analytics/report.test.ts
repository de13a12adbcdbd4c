import type { DayDoc, MinuteDoc, StreamDoc } from './analytics-repository';
import { zeroCounts, type Counts } from './buckets';
import { buildReport, burstThreshold, findPeaks, median, seriesOf, titleAt, topOf, windowOf } from './report';

const at = (iso: string) => new Date(iso);

const aStream = (overrides: Partial<StreamDoc> = {}): StreamDoc => ({
  _id: 'u1|s',
  userId: 'u1',
  startedAt: at('2026-03-01T20:00:30Z'),
  endedAt: at('2026-03-01T20:04:10Z'),
  titles: [{ at: at('2026-03-01T20:00:30Z'), title: 'ranked grind' }],
  ...overrides,
});

const aMinute = (iso: string, counts: Partial<Counts>, rest: Partial<MinuteDoc> = {}): MinuteDoc => ({
  _id: `u1|${iso}`,
  userId: 'u1',
  minute: at(iso),
  counts: { ...zeroCounts(), ...counts },
  ...rest,
});

describe('windowOf', () => {
  test('when the last stream ended, then its window runs from its first to its last minute, by the minute', () => {
    expect(windowOf('last-stream', at('2026-03-02T10:00:00Z'), aStream())).toEqual({
      from: at('2026-03-01T20:00:00Z'),
      to: at('2026-03-01T20:05:00Z'),
      stepMs: 60_000,
    });
  });

  test('when the stream is still live, then its window ends with the current minute', () => {
    const live = aStream({ endedAt: null });
    expect(windowOf('last-stream', at('2026-03-01T20:02:01Z'), live)?.to).toEqual(at('2026-03-01T20:03:00Z'));
  });

  test('when the stream ran longer than 48 hours, then its window is its last 48 hours', () => {
    const long = aStream({ startedAt: at('2026-03-01T00:00:00Z'), endedAt: at('2026-03-04T00:00:00Z') });
    expect(windowOf('last-stream', at('2026-03-05T00:00:00Z'), long)?.from).toEqual(at('2026-03-02T00:01:00Z'));
  });

  test('when no stream was seen, then the last stream has no window', () => {
    expect(windowOf('last-stream', at('2026-03-01T20:00:00Z'), null)).toBeNull();
  });

  test('when the range is 7 or 30 days, then it is that many UTC days ending with today, by the hour or the day', () => {
    const now = at('2026-03-10T15:30:00Z');
    expect(windowOf('7d', now, null)).toEqual({
      from: at('2026-03-04T00:00:00Z'),
      to: at('2026-03-11T00:00:00Z'),
      stepMs: 3_600_000,
    });
    expect(windowOf('30d', now, null)).toEqual({
      from: at('2026-02-09T00:00:00Z'),
      to: at('2026-03-11T00:00:00Z'),
      stepMs: 86_400_000,
    });
  });
});

describe('seriesOf', () => {
  test('when some steps have no bucket, then they are zero, and buckets outside the window are left out', () => {
    const window = { from: at('2026-03-01T20:00:00Z'), to: at('2026-03-01T20:04:00Z'), stepMs: 60_000 };
    const series = seriesOf(window, [
      { at: at('2026-03-01T19:59:00Z'), counts: { messages: 9 } },
      { at: at('2026-03-01T20:01:00Z'), counts: { messages: 3, follows: 1 } },
      { at: at('2026-03-01T20:03:00Z'), counts: { messages: 2 } },
      { at: at('2026-03-01T20:04:00Z'), counts: { messages: 9 } },
    ]);
    expect(series.messages).toEqual([0, 3, 0, 2]);
    expect(series.follows).toEqual([0, 1, 0, 0]);
  });
});

describe('peaks', () => {
  test('when values are given, then the median is the middle one (mean of the two middle ones)', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  test('when the active minutes have a median of 4, then a burst is 12 lines or more (3 × median)', () => {
    expect(burstThreshold([0, 4, 4, 3, 5, 0])).toBe(12);
  });

  test('when a stream is quiet (median 1), then a burst needs at least 5 lines above it', () => {
    expect(burstThreshold([1, 1, 2, 1])).toBe(6);
    expect(findPeaks([1, 3, 1, 1, 2])).toEqual([]);
  });

  test('when a burst lasts several minutes, then it is one peak at its highest minute; peaks come biggest first', () => {
    const messages = [4, 4, 20, 30, 25, 4, 4, 15, 4, 4, 40];
    expect(findPeaks(messages)).toEqual([
      { index: 10, messages: 40 },
      { index: 3, messages: 30 },
      { index: 7, messages: 15 },
    ]);
  });

  test('when there are more bursts than the limit, then the biggest are kept', () => {
    expect(findPeaks([1, 50, 1, 60, 1, 70, 1], 2)).toEqual([
      { index: 5, messages: 70 },
      { index: 3, messages: 60 },
    ]);
  });
});

describe('titleAt', () => {
  const stream = aStream({
    endedAt: at('2026-03-01T22:00:00Z'),
    titles: [
      { at: at('2026-03-01T21:00:00Z'), title: 'boss fight' },
      { at: at('2026-03-01T20:00:30Z'), title: 'ranked grind' },
    ],
  });
  const now = at('2026-03-02T00:00:00Z');

  test('when the title changed during the stream, then each moment has the title it had then', () => {
    expect(titleAt([stream], at('2026-03-01T20:30:00Z'), now)).toBe('ranked grind');
    expect(titleAt([stream], at('2026-03-01T21:00:00Z'), now)).toBe('boss fight');
  });

  test('when the moment is the stream’s first (partial) minute, then it has the first title', () => {
    expect(titleAt([stream], at('2026-03-01T20:00:00Z'), now)).toBe('ranked grind');
  });

  test('when no stream ran at that moment, then there is no title', () => {
    expect(titleAt([stream], at('2026-03-01T23:00:00Z'), now)).toBeNull();
  });
});

describe('topOf', () => {
  test('when counts are spread over buckets, then they are summed, most first, ties by name, at most the limit', () => {
    expect(topOf([{ bob: 2, alice: 1 }, { alice: 1, carol: 2 }, undefined, { dave: 1 }], 3)).toEqual([
      { name: 'alice', count: 2 },
      { name: 'bob', count: 2 },
      { name: 'carol', count: 2 },
    ]);
  });
});

describe('buildReport', () => {
  test('when the last stream’s minutes are given, then totals, unique chatters, top lists and peaks come from them', () => {
    const stream = aStream({ startedAt: at('2026-03-01T20:00:00Z'), endedAt: at('2026-03-01T20:09:30Z') });
    const window = windowOf('last-stream', at('2026-03-01T21:00:00Z'), stream);
    if (!window) throw new Error('a window');
    const quiet = (minute: number) =>
      aMinute(`2026-03-01T20:0${minute}:00.000Z`, { messages: 2 }, { chatters: { alice: 1, bob: 1 } });
    const buckets = [
      quiet(0),
      quiet(1),
      aMinute(
        '2026-03-01T20:02:00.000Z',
        { messages: 30, commands: 3, follows: 2 },
        { chatters: { alice: 10, carol: 20 }, commandRuns: { hello: 2, dice: 1 } },
      ),
      quiet(3),
      aMinute('2026-03-01T20:09:00.000Z', { messages: 1, giftedSubscriptions: 5 }, { unnamedLines: 1 }),
    ];

    const report = buildReport({
      range: 'last-stream',
      now: at('2026-03-01T21:00:00Z'),
      window,
      stream,
      streams: [stream],
      buckets,
    });

    expect(report).toEqual({
      range: 'last-stream',
      from: '2026-03-01T20:00:00.000Z',
      to: '2026-03-01T20:10:00.000Z',
      stepSeconds: 60,
      stream: { startedAt: '2026-03-01T20:00:00.000Z', endedAt: '2026-03-01T20:09:30.000Z', title: 'ranked grind' },
      totals: {
        messages: 37,
        commands: 3,
        follows: 2,
        subscriptions: 0,
        giftedSubscriptions: 5,
        kicks: 0,
        uniqueChatters: 3,
        isChattersCapped: true,
      },
      series: {
        messages: [2, 2, 30, 2, 0, 0, 0, 0, 0, 1],
        commands: [0, 0, 3, 0, 0, 0, 0, 0, 0, 0],
        follows: [0, 0, 2, 0, 0, 0, 0, 0, 0, 0],
        subscriptions: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        giftedSubscriptions: [0, 0, 0, 0, 0, 0, 0, 0, 0, 5],
        kicks: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      },
      topChatters: [
        { username: 'carol', messages: 20 },
        { username: 'alice', messages: 13 },
        { username: 'bob', messages: 3 },
      ],
      topCommands: [
        { command: 'hello', executions: 2 },
        { command: 'dice', executions: 1 },
      ],
      peaks: [{ at: '2026-03-01T20:02:00.000Z', messages: 30, title: 'ranked grind' }],
    });
  });

  test('when 30 days are asked, then the chart is by the day and the peaks by the hour', () => {
    const now = at('2026-03-30T12:00:00Z');
    const window = windowOf('30d', now, null);
    if (!window) throw new Error('a window');
    const day = (iso: string, hours: DayDoc['hours']): DayDoc => ({
      _id: `u1|${iso}`,
      userId: 'u1',
      day: at(iso),
      hours,
    });
    const buckets = [
      day('2026-03-01T00:00:00.000Z', { '20': { messages: 3 }, '21': { messages: 3 } }),
      day('2026-03-30T00:00:00.000Z', { '10': { messages: 3 }, '11': { messages: 40 } }),
    ];

    const report = buildReport({ range: '30d', now, window, stream: null, streams: [], buckets });

    expect(report.stepSeconds).toBe(86_400);
    expect(report.series.messages).toHaveLength(30);
    expect(report.series.messages[0]).toBe(6);
    expect(report.series.messages[29]).toBe(43);
    expect(report.peaks).toEqual([{ at: '2026-03-30T11:00:00.000Z', messages: 40, title: null }]);
  });
});
