import { bucketOf, emptyUsage, staleBuckets, statsOf, type Usage } from './usage';

const at = (iso: string) => new Date(iso);
const now = at('2026-11-25T18:30:00Z');

/** The usage the runs at `times` make, counted at `clock` as the service counts them. */
function used(times: readonly string[], clock = now): Usage {
  const hours: Record<string, number> = {};
  let lastUsedAt: Date | null = null;
  for (const time of times) {
    const bucket = bucketOf(at(time), clock);
    if (bucket !== null) hours[bucket] = (hours[bucket] ?? 0) + 1;
    if (!lastUsedAt || at(time) > lastUsedAt) lastUsedAt = at(time);
  }
  return { hours, lastUsedAt };
}

describe('bucketOf, staleBuckets and statsOf', () => {
  test('when a command never ran, then 0, 0 and no last use', () => {
    expect(statsOf('hug', emptyUsage(), now)).toEqual({
      command: 'hug',
      last24Hours: 0,
      last7Days: 0,
      lastUsedAt: null,
    });
  });

  test('when runs fall inside and outside the windows, then the current hour and the 23 (167) before it count', () => {
    const usage = used([
      '2026-11-25T18:05:00Z', // this hour
      '2026-11-24T19:00:00Z', // 23 hours before this hour: inside 24 h
      '2026-11-24T18:59:59Z', // 24 hours before: outside 24 h, inside 7 days
      '2026-11-18T19:00:00Z', // 167 hours before: inside 7 days
    ]);
    expect(statsOf('hug', usage, now)).toEqual({
      command: 'hug',
      last24Hours: 2,
      last7Days: 4,
      lastUsedAt: '2026-11-25T18:05:00.000Z',
    });
  });

  test('when time passes, then runs leave the windows', () => {
    const usage = used(['2026-11-25T18:05:00Z']);
    expect(statsOf('hug', usage, at('2026-11-26T17:59:59Z')).last24Hours).toBe(1);
    expect(statsOf('hug', usage, at('2026-11-26T18:00:00Z')).last24Hours).toBe(0);
    expect(statsOf('hug', usage, at('2026-12-02T17:59:59Z')).last7Days).toBe(1);
    expect(statsOf('hug', usage, at('2026-12-02T18:00:00Z'))).toEqual({
      command: 'hug',
      last24Hours: 0,
      last7Days: 0,
      lastUsedAt: '2026-11-25T18:05:00.000Z',
    });
  });

  test('when a run is older than the kept 7 days, then it has no bucket', () => {
    expect(bucketOf(at('2026-11-18T19:00:00Z'), now)).toBe('2026-11-18T19');
    expect(bucketOf(at('2026-11-18T18:59:59Z'), now)).toBeNull();
    expect(bucketOf(at('2026-11-25T18:05:00Z'), now)).toBe('2026-11-25T18');
  });

  test('when buckets have left the kept 7 days, then staleBuckets names them and only them', () => {
    const hours = { '2026-11-18T18': 1, '2026-11-18T19': 2, '2026-11-10T00': 3, '2026-11-25T18': 4 };
    expect(staleBuckets(hours, now)).toEqual(['2026-11-18T18', '2026-11-10T00']);
    expect(staleBuckets({ '2026-11-25T18': 4 }, now)).toEqual([]);
  });
});
