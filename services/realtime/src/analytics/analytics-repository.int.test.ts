import { randomUUID } from 'node:crypto';
import { createMongoStore, type Store } from '@kickstand/platform/store';
import { createFakeClock } from '@kickstand/platform/testing';
import { createAnalyticsRepository, type AnalyticsRepository, type StoredDayDoc } from './analytics-repository';
import { analyticsLimits, dayMs, floorTo, zeroCounts, type DayDelta } from './buckets';

/**
 * The day documents of stream analytics on a real engine (MongoDB or SecantusDB at MONGO_URL, e.g.
 * `bash scripts/with-engines.sh npx jest services/realtime/src/analytics/analytics-repository.int.test.ts`):
 * two instances (two connections) writing the same day, each write a compare-and-set on the day's
 * `writes`, and a document an earlier version left (chatters as an object). Skipped with one line
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
    const delta = (chatters: Array<[string, number]>): DayDelta => ({
      userId: 'u-1',
      day,
      hours: new Map([['20', { ...zeroCounts(), messages: chatters.reduce((sum, [, lines]) => sum + lines, 0) }]]),
      chatters: new Map(chatters),
      unnamedLines: 0,
      commands: new Map([['dice', 1]]),
    });
    const stored = () => stores[0]?.collection<StoredDayDoc>('analytics-days').findOne({ _id: dayId });

    beforeEach(() => {
      dbName = `kickstand-analytics-${randomUUID().slice(0, 8)}`;
      stores = [];
    });

    afterEach(async () => {
      // the database is this test's own; empty what it wrote
      await stores[0]?.collection('analytics-days').deleteMany({});
      for (const store of stores) await store.close();
    });

    test('when two instances write the same day at once, then every line and command counts once, under its name', async () => {
      const [a, b] = [await repoOn(), await repoOn()];
      const writes = 10;
      // each instance writes a day one flush after another, both at once
      const flushes = async (repo: AnalyticsRepository, prefix: string, lines: number) => {
        for (let index = 0; index < writes; index += 1) {
          await repo.addDay(
            delta([
              [`${prefix}${index}`, lines],
              ['both', 1],
            ]),
          );
        }
      };

      await Promise.all([flushes(a, 'a', 1), flushes(b, 'b', 2)]);

      const [read] = await a.daysBetween('u-1', day, new Date(day.getTime() + dayMs));
      expect(read?.hours).toEqual({ '20': { messages: writes * 5 } });
      expect(read?.chatters?.both).toBe(2 * writes);
      expect(Object.keys(read?.chatters ?? {})).toHaveLength(2 * writes + 1);
      expect(read?.commandRuns).toEqual({ dice: 2 * writes });
      expect((await stored())?.writes).toBe(2 * writes);
      expect(await b.dayChatterCount('u-1', day)).toBe(2 * writes + 1);
    });

    test('when a day keeps its cap of chatters, then a newcomer’s lines are unnamed', async () => {
      const repo = await repoOn();
      const full = Array.from({ length: analyticsLimits.chattersPerDay }, (_, index): [string, number] => [
        `v${index}`,
        1,
      ]);
      await repo.addDay(delta(full));

      expect(await repo.addDay(delta([['newcomer', 2]]))).toBe(analyticsLimits.chattersPerDay);

      expect(await stored()).toMatchObject({ unnamedLines: 2, writes: 2 });
    });

    test('when an earlier version left the day’s chatters as an object, then the next write turns them into text', async () => {
      const repo = await repoOn();
      await stores[0]?.collection<StoredDayDoc>('analytics-days').insertOne({
        _id: dayId,
        userId: 'u-1',
        day,
        hours: { '20': { messages: 3 } },
        chatters: { alice: 2, bob: 1 },
      });

      await repo.addDay(
        delta([
          ['carol', 1],
          ['alice', 1],
        ]),
      );

      const doc = await stored();
      expect(doc).toMatchObject({ chatterNames: 'alice bob carol', chatterLines: '3 1 1', writes: 1 });
      expect(doc).not.toHaveProperty('chatters');
    });
  });
}
