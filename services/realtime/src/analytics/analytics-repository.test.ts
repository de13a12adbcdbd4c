import { existsSync } from 'node:fs';
import path from 'node:path';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore, type Store } from '@kickstand/platform/store';
import { createFakeClock, createTempDirs } from '@kickstand/platform/testing';
import { createAnalyticsRepository, minutesSpec, type MinuteDoc, type MinuteEntry } from './analytics-repository';
import { analyticsLimits, zeroCounts, type MinuteDelta } from './buckets';
import { createStreamAnalytics } from './stream-analytics';

const at = (iso: string) => new Date(iso);
const clock = createFakeClock(at('2026-03-01T20:00:00Z'));
const log = createSilentLogger();
const dirs = createTempDirs('analytics');
const stores: Store[] = [];

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await dirs.removeAll();
});

async function openStore(dir: string): Promise<Store> {
  const store = await createEmbeddedStore({ dir, clock, log });
  stores.push(store);
  return store;
}

const delta = (
  userId: string,
  minute: Date,
  messages: number,
  chatters: Array<[string, number]>,
  commands: Array<[string, number]> = [],
): MinuteDelta => ({
  userId,
  minute,
  counts: { ...zeroCounts(), messages, commands: commands.reduce((sum, [, runs]) => sum + runs, 0) },
  chatters: new Map(chatters),
  unnamedLines: 0,
  commands: new Map(commands),
});

/** The entries the store's recent log holds for the owner, as [id, minute ISO, messages]. */
async function entriesOf(store: Store, userId: string, from: Date, to: Date) {
  const minutes = store.recentLog<MinuteEntry>('analytics-minutes', minutesSpec);
  await minutes.open();
  return (await minutes.range(userId, from, to)).map(({ id, at: minute, entry }) => [
    id,
    minute.toISOString(),
    entry.counts.messages,
  ]);
}

describe('the minutes of stream analytics (recent log analytics-minutes)', () => {
  test('when a minute is written three times, then it is three entries, read back as one minute with their counts summed', async () => {
    const store = await openStore(await dirs.make());
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    const minute = at('2026-03-01T19:40:00Z');

    await repo.addMinute(delta('u1', minute, 3, [['alice', 3]], [['hello', 1]]));
    await repo.addMinute(delta('u1', at('2026-03-01T19:41:00Z'), 1, [['bob', 1]]));
    // a line that came late for 19:40, twice
    await repo.addMinute(
      delta(
        'u1',
        minute,
        2,
        [
          ['alice', 1],
          ['carol', 1],
        ],
        [['dice', 1]],
      ),
    );
    await repo.addMinute(delta('u1', minute, 1, [['carol', 1]]));

    expect(await entriesOf(store, 'u1', minute, at('2026-03-01T19:42:00Z'))).toEqual([
      ['u1|2026-03-01T19:40:00.000Z', '2026-03-01T19:40:00.000Z', 3],
      ['u1|2026-03-01T19:40:00.000Z|2', '2026-03-01T19:40:00.000Z', 2],
      ['u1|2026-03-01T19:40:00.000Z|3', '2026-03-01T19:40:00.000Z', 1],
      ['u1|2026-03-01T19:41:00.000Z', '2026-03-01T19:41:00.000Z', 1],
    ]);
    expect(await repo.minutesBetween('u1', minute, at('2026-03-01T19:42:00Z'))).toEqual([
      {
        _id: 'u1|2026-03-01T19:40:00.000Z',
        userId: 'u1',
        minute,
        counts: { ...zeroCounts(), messages: 6, commands: 2 },
        chatters: { alice: 4, carol: 2 },
        commandRuns: { hello: 1, dice: 1 },
      },
      {
        _id: 'u1|2026-03-01T19:41:00.000Z',
        userId: 'u1',
        minute: at('2026-03-01T19:41:00Z'),
        counts: { ...zeroCounts(), messages: 1 },
        chatters: [['bob', 1]],
      },
    ]);
  });

  test('when another writer took the first ids of a minute, then this one writes the next free one', async () => {
    const store = await openStore(await dirs.make());
    const other = createAnalyticsRepository(store);
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    const minute = at('2026-03-01T19:40:00Z');
    await other.addMinute(delta('u1', minute, 1, [['alice', 1]]));
    await other.addMinute(delta('u1', minute, 1, [['alice', 1]]));

    await repo.addMinute(delta('u1', minute, 5, [['bob', 5]]));

    expect((await entriesOf(store, 'u1', minute, at('2026-03-01T19:41:00Z'))).map(([id]) => id)).toEqual([
      'u1|2026-03-01T19:40:00.000Z',
      'u1|2026-03-01T19:40:00.000Z|2',
      'u1|2026-03-01T19:40:00.000Z|3',
    ]);
    expect((await repo.minutesBetween('u1', minute, at('2026-03-01T19:41:00Z')))[0]?.counts.messages).toBe(7);
  });

  test('when an owner has more active minutes than the last stream can show, then the oldest beyond 2,880 are dropped', async () => {
    const store = await openStore(await dirs.make());
    const repo = createAnalyticsRepository(store);
    await repo.createIndexes();
    const first = at('2026-03-01T00:00:00Z').getTime();
    const minuteAt = (n: number) => new Date(first + n * 60_000);
    const kept = analyticsLimits.streamMinutes;
    await Promise.all(Array.from({ length: kept + 2 }, (_, n) => repo.addMinute(delta('u1', minuteAt(n), 1, []))));

    const read = await repo.minutesBetween('u1', minuteAt(0), minuteAt(kept + 2));
    expect(read.length).toBe(kept);
    expect(read[0]?.minute).toEqual(minuteAt(2));
    expect(read[kept - 1]?.minute).toEqual(minuteAt(kept + 1));
  });

  test('when the data folder holds the former analytics-minutes collection, then its minutes are imported once, the datafile goes, and the last stream reads them', async () => {
    const dir = await dirs.make();
    const before = await openStore(dir);
    const former = before.collection<MinuteDoc>('analytics-minutes');
    await former.createIndex({ fields: { userId: 1, minute: 1 } });
    await former.createIndex({ fields: { minute: 1 }, expireAfterSeconds: analyticsLimits.retentionDays * 86_400 });
    const minute = at('2026-03-01T19:00:00Z');
    await former.insertOne({
      _id: 'u1|2026-03-01T19:00:00.000Z',
      userId: 'u1',
      minute,
      counts: { ...zeroCounts(), messages: 2 },
      chatters: { alice: 2 },
    });
    // the former second write: a `$inc` into the document
    await former.updateOne(
      { _id: 'u1|2026-03-01T19:00:00.000Z' },
      { $inc: { 'counts.messages': 1, 'chatters.bob': 1, unnamedLines: 1 } },
    );
    await former.insertOne({
      _id: 'u1|2026-03-01T19:01:00.000Z',
      userId: 'u1',
      minute: at('2026-03-01T19:01:00Z'),
      counts: { ...zeroCounts(), messages: 1, commands: 1 },
      chatters: { carol: 1 },
      commandRuns: { dice: 1 },
    });
    await before.close();
    stores.splice(stores.indexOf(before), 1);

    const after = await openStore(dir);
    const repo = createAnalyticsRepository(after);
    await repo.createIndexes();
    expect(existsSync(path.join(dir, 'analytics-minutes.db'))).toBe(false);
    await repo.streamStarted('u1', minute, 'before the upgrade');
    await repo.streamEnded('u1', minute, at('2026-03-01T19:01:30Z'), 'before the upgrade');
    const report = await createStreamAnalytics({ repo, clock, log }).report('u1', 'last-stream');

    expect(report).toMatchObject({
      from: '2026-03-01T19:00:00.000Z',
      to: '2026-03-01T19:02:00.000Z',
      totals: { messages: 4, commands: 1, uniqueChatters: 3, isChattersCapped: true },
      series: { messages: [3, 1], commands: [0, 1] },
      topCommands: [{ command: 'dice', executions: 1 }],
    });
    // imported once: a restart reads the same from the recent log alone
    await after.close();
    stores.splice(stores.indexOf(after), 1);
    const again = createAnalyticsRepository(await openStore(dir));
    await again.createIndexes();
    expect(
      (await again.minutesBetween('u1', minute, at('2026-03-01T19:02:00Z'))).map((doc) => doc.counts.messages),
    ).toEqual([3, 1]);
  });
});
