import { randomUUID } from 'node:crypto';
import { createMongoStore, type Store } from '@kickstand/platform/store';
import { createFakeClock } from '@kickstand/platform/testing';
import { createAnalyticsRepository, type AnalyticsRepository, type StoredDayDoc } from './analytics-repository';
import { analyticsLimits, dayMs, floorTo, zeroCounts, type DayDelta, type MinuteDelta } from './buckets';

/**
 * The day documents of stream analytics on a real engine (MongoDB or SecantusDB at MONGO_URL, e.g.
 * `bash scripts/with-engines.sh npx jest services/realtime/src/analytics/analytics-repository.int.test.ts`):
 * two instances (two connections) writing the same day and its minutes, each day write a
 * compare-and-set on the day's `writes`; a day's chatters read from its minutes, capped, and moved
 * with it; and a document an earlier version left (chatters in the day). Skipped with one line
 * without MONGO_URL, unless CI requires it.
 *
 * The day is today's (UTC): the engine's own TTL monitor (wall clock) must not delete what the test
 * still reads.
 */
const url = process.env.MONGO_URL ?? '';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';

if (!url && isRequired) {
  test('when CI requires integration suites, then MONGO_URL must be set', () => {
    throw new Error('CI=true and REQUIRE_INTEGRATION=1, but MONGO_URL is not set');
  });
} else {
  if (!url)
    process.stdout.write('stream analytics days on a real engine skipped: set MONGO_URL (scripts/with-engines.sh)\n');
  const describeWithMongo = url ? describe : describe.skip;

  describeWithMongo('stream analytics days on a real store', () => {
    const clock = createFakeClock(new Date());
    const day = new Date(floorTo(clock.now().getTime(), dayMs));
    const dayId = `u-1|${day.toISOString().slice(0, 10)}`;
    let dbName: string;
    let stores: Store[] = [];

    const repoOn = async (): Promise<AnalyticsRepository> => {
      const store = await createMongoStore({ url, dbName, clock });
      stores.push(store);
      const repo = createAnalyticsRepository(store);
      await repo.createIndexes();
      return repo;
    };
    const dayDelta = (messages: number): DayDelta => ({
      userId: 'u-1',
      day,
      hours: new Map([['20', { ...zeroCounts(), messages }]]),
      commands: new Map([['dice', 1]]),
    });
    /** A minute of the day's hour 20 (the n-th), its chatters' lines. */
    const minuteDelta = (minute: number, chatters: Array<[string, number]>): MinuteDelta => ({
      userId: 'u-1',
      minute: new Date(day.getTime() + 20 * 3_600_000 + minute * 60_000),
      counts: { ...zeroCounts(), messages: chatters.reduce((sum, [, lines]) => sum + lines, 0) },
      chatters: new Map(chatters),
      unnamedLines: 0,
      commands: new Map(),
    });
    /** Writes a minute and its day, as the flush does. */
    const flushOf = async (repo: AnalyticsRepository, minute: number, chatters: Array<[string, number]>) => {
      const written = minuteDelta(minute, chatters);
      await repo.addMinute(written);
      await repo.addDay(dayDelta(written.counts.messages));
    };
    const dayRead = async (repo: AnalyticsRepository) =>
      (await repo.daysBetween('u-1', day, new Date(day.getTime() + dayMs)))[0];
    const stored = () => stores[0]?.collection<StoredDayDoc>('analytics-days').findOne({ _id: dayId });

    beforeEach(() => {
      dbName = `kickstand-analytics-${randomUUID().slice(0, 8)}`;
      stores = [];
    });

    afterEach(async () => {
      // the database is this test's own; empty what it wrote
      for (const name of ['analytics-days', 'analytics-minutes', 'analytics-past-days']) {
        await stores[0]?.collection(name).deleteMany({});
      }
      for (const store of stores) await store.close();
    });

    test('when two instances write the same day and its minutes at once, then every line and command counts once, under its name', async () => {
      const [a, b] = [await repoOn(), await repoOn()];
      const writes = 10;
      // each instance writes a minute and the day one flush after another, both at once
      const flushes = async (repo: AnalyticsRepository, prefix: string, lines: number) => {
        for (let index = 0; index < writes; index += 1) {
          await flushOf(repo, index, [
            [`${prefix}${index}`, lines],
            ['both', 1],
          ]);
        }
      };

      await Promise.all([flushes(a, 'a', 1), flushes(b, 'b', 2)]);

      const read = await dayRead(a);
      expect(read?.hours).toEqual({ '20': { messages: writes * 5 } });
      expect(read?.chatters?.both).toBe(2 * writes);
      expect(Object.keys(read?.chatters ?? {})).toHaveLength(2 * writes + 1);
      expect(read?.commandRuns).toEqual({ dice: 2 * writes });
      expect((await stored())?.writes).toBe(2 * writes);
    });

    test('when a day’s minutes name more chatters than its cap, then a newcomer’s lines are unnamed, and the day moves with them', async () => {
      const repo = await repoOn();
      const perMinute = analyticsLimits.chattersPerMinute;
      for (let first = 0; first < analyticsLimits.chattersPerDay; first += perMinute) {
        const names = Array.from({ length: perMinute }, (_, index): [string, number] => [`v${first + index}`, 1]);
        await flushOf(repo, first / perMinute, names);
      }

      await flushOf(repo, 59, [
        ['newcomer', 2],
        ['v7', 3],
      ]);

      const read = await dayRead(repo);
      expect(Object.keys(read?.chatters ?? {})).toHaveLength(analyticsLimits.chattersPerDay);
      expect([read?.chatters?.v7, read?.chatters?.newcomer, read?.unnamedLines]).toEqual([4, undefined, 2]);
      expect(await repo.closeDays(new Date(day.getTime() + dayMs), 10)).toBe(1);
      expect(await stored()).toBeNull();
      expect(await dayRead(repo)).toEqual(read);
    });

    test('when an earlier version left the day’s chatters in its document, then they are not read, and the next write removes them', async () => {
      const repo = await repoOn();
      await repo.addMinute(
        minuteDelta(0, [
          ['alice', 2],
          ['bob', 1],
        ]),
      );
      await stores[0]?.collection<StoredDayDoc>('analytics-days').insertOne({
        _id: dayId,
        userId: 'u-1',
        day,
        hours: { '20': { messages: 3 } },
        chatterNames: 'alice bob',
        chatterLines: '2 1',
        unnamedLines: 4,
      });
      expect((await dayRead(repo))?.chatters).toEqual({ alice: 2, bob: 1 });

      await repo.addDay(dayDelta(1));

      expect(await stored()).toEqual({
        _id: dayId,
        userId: 'u-1',
        day,
        hours: { '20': { messages: 4 } },
        commandRuns: { dice: 1 },
        writes: 1,
      });
    });
  });
}
