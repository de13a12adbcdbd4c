import { emptyUsage, recordUse, rememberedEvents, statsOf, type Usage } from './usage';

const at = (iso: string) => new Date(iso);
const now = at('2026-11-25T18:30:00Z');

function used(times: readonly string[], clock = now): Usage {
  return times.reduce<Usage>(
    (usage, time, index) => recordUse(usage, at(time), `e${index}`, clock) ?? usage,
    emptyUsage(),
  );
}

describe('recordUse and statsOf', () => {
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

  test('when the same event comes again, then it is not counted twice', () => {
    const once = recordUse(emptyUsage(), at('2026-11-25T18:05:00Z'), 'e1', now);
    expect(once).not.toBeNull();
    expect(recordUse(once ?? emptyUsage(), at('2026-11-25T18:05:00Z'), 'e1', now)).toBeNull();
  });

  test('when runs are recorded over more than 7 days, then older buckets are dropped (at most 168 kept)', () => {
    const start = Date.parse('2026-11-01T00:00:00Z');
    let usage = emptyUsage();
    for (let hour = 0; hour < 400; hour++) {
      const time = new Date(start + hour * 3_600_000);
      usage = recordUse(usage, time, `e${hour}`, time) ?? usage;
    }
    expect(Object.keys(usage.hours)).toHaveLength(168);
    expect(usage.recentEventIds).toHaveLength(rememberedEvents);
  });

  test('when a late run older than 7 days arrives, then only a newer last use is kept and no bucket grows', () => {
    const usage = used(['2026-11-25T18:05:00Z']);
    const late = recordUse(usage, at('2026-11-10T10:00:00Z'), 'late', now);
    expect(late?.hours).toEqual({ '2026-11-25T18': 1 });
    expect(late?.lastUsedAt).toEqual(at('2026-11-25T18:05:00Z'));
  });
});
