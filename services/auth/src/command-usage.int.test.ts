import { randomUUID } from 'node:crypto';
import { createSilentLogger } from '@kickstand/platform/log';
import { createMongoStore, type Store } from '@kickstand/platform/store';
import { createFakeClock } from '@kickstand/platform/testing';
import { createCommandCounter, type CommandCounter } from './command-counter';
import { defaultKafkaRedeliveryWindowSeconds, inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import {
  countedExecutionsSet,
  createAuthRepository,
  type AuthRepository,
  type CommandExecutionDoc,
  type CommandUsageDoc,
} from './repository';

/**
 * auth's command counting on a real engine (MongoDB or SecantusDB at MONGO_URL, e.g.
 * `bash scripts/with-engines.sh npx jest services/auth/src/command-usage.int.test.ts`): two auth
 * instances (two connections) on one database, the counted set as documents, and the documents an
 * earlier version left. Skipped with one line without MONGO_URL, unless CI requires it.
 *
 * The fake clock starts at the wall clock's time and only moves forward: the engine's own TTL
 * monitor (wall clock) must not delete what the test still reads.
 */
const url = process.env.MONGO_URL ?? '';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';
const minute = 60_000;
const day = 24 * 60 * minute;

if (!url && isRequired) {
  test('when CI requires integration suites, then MONGO_URL must be set', () => {
    throw new Error('CI=true and REQUIRE_INTEGRATION=1, but MONGO_URL is not set');
  });
} else {
  if (!url)
    process.stdout.write('auth command counting on a real engine skipped: set MONGO_URL (scripts/with-engines.sh)\n');
  const describeWithMongo = url ? describe : describe.skip;

  describeWithMongo('command usage counts on a real store', () => {
    const clock = createFakeClock(new Date());
    let dbName: string;
    let stores: Store[] = [];

    const openStore = async () => {
      const store = await createMongoStore({ url, dbName, clock });
      stores.push(store);
      return store;
    };
    const openRepo = async (store: Store, redeliveryWindowSeconds = inProcessRedeliveryWindowSeconds) => {
      const repo = createAuthRepository(store, { redeliveryWindowSeconds });
      await repo.createIndexes();
      await repo.commandUsage.open(clock.now());
      return repo;
    };
    const counterOn = (repo: AuthRepository): CommandCounter =>
      createCommandCounter({ repo, clock, log: createSilentLogger(), flushIntervalMs: 0 });
    // the day the executions are counted on (the clock moves on; their day does not)
    const date = clock.now().toISOString().slice(0, 10);
    const dice = (seenKey: string) =>
      ({ seenKey, usageId: `${date}:dice`, date, command: 'dice', kind: 'custom' }) as const;
    const countOf = async (repo: AuthRepository) => (await repo.commandUsage.between(date, date))[0]?.count;

    beforeEach(() => {
      dbName = `kickstand-auth-counts-${randomUUID().slice(0, 8)}`;
      stores = [];
    });

    afterEach(async () => {
      // the database is this test's own; empty what it wrote
      const [first] = stores;
      for (const name of ['command-usage', 'command-executions', countedExecutionsSet]) {
        await first?.collection(name).deleteMany({});
      }
      for (const store of stores) await store.close();
    });

    test('when two instances count and each gets the other one’s redelivery, then every execution counts once and no document is left', async () => {
      const first = await openRepo(await openStore());
      const second = await openRepo(await openStore());
      const [a, b] = [counterOn(first), counterOn(second)];
      await a.record(dice('event-1'));
      await b.record(dice('event-2'));
      expect(await b.record(dice('event-1'))).toBe(false);
      await Promise.all([a.flush(), b.flush()]);

      expect(await a.record(dice('event-2'))).toBe(false);
      expect(await b.record(dice('event-1'))).toBe(false);
      expect(await countOf(first)).toBe(2);
      expect(await stores[0]?.collection('command-executions').count()).toBe(0);
      expect(await stores[0]?.collection(countedExecutionsSet).count()).toBe(2);
    });

    test('when the window is Kafka’s, then a counted execution delivered again 3 days less a minute later is refused', async () => {
      const repo = await openRepo(await openStore(), defaultKafkaRedeliveryWindowSeconds);
      const counter = counterOn(repo);
      await counter.record(dice('event-1'));
      await counter.flush();

      clock.advance(3 * day - minute);
      expect(await counter.record(dice('event-1'))).toBe(false);
      clock.advance(2 * minute);
      expect(await counter.record(dice('event-1'))).toBe(true);
    });

    test('when the window changes between two starts, then the counted set expires by the new one', async () => {
      const counter = counterOn(await openRepo(await openStore(), 10 * 60));
      await counter.record(dice('event-1'));
      await counter.flush();

      // a start with a longer window finds the counted set's TTL index of the shorter one
      const longer = counterOn(await openRepo(await openStore(), 30 * 60));
      clock.advance(20 * minute);
      expect(await longer.record(dice('event-1'))).toBe(false);
    });

    test('when an earlier version left executions with a three-day expiry, then the uncounted one is counted after 4 days, a counted one older than the window goes and a younger one refuses its redelivery', async () => {
      const store = await openStore();
      await createAuthRepository(store).createIndexes(); // the earlier version's TTL index on expiresAt
      const now = clock.now();
      const earlier = (seenKey: string, isCounted: boolean, claimedAt: Date): CommandExecutionDoc => ({
        _id: seenKey,
        usageId: `${date}:dice`,
        date,
        command: 'dice',
        kind: 'custom',
        isCounted,
        claimedAt,
        expiresAt: new Date(claimedAt.getTime() + 3 * day),
      });
      const executions = store.collection<CommandExecutionDoc>('command-executions');
      await executions.insertOne(earlier('uncounted', false, now));
      const windowMs = inProcessRedeliveryWindowSeconds * 1000;
      await executions.insertOne(earlier('counted-old', true, new Date(now.getTime() - windowMs - minute)));
      await executions.insertOne(earlier('counted-young', true, new Date(now.getTime() - windowMs + minute)));
      await store.collection<CommandUsageDoc>('command-usage').insertOne({
        _id: `${date}:dice`,
        date,
        command: 'dice',
        kind: 'custom',
        count: 2,
      });

      const repo = await openRepo(store);
      expect((await executions.find({}, { sort: { _id: 1 } })).map(({ _id, expiresAt }) => [_id, expiresAt])).toEqual([
        ['counted-young', new Date(now.getTime() - windowMs + minute + 3 * day)],
        ['uncounted', undefined],
      ]);
      const counter = counterOn(repo);
      expect(await counter.record(dice('counted-young'))).toBe(false);
      clock.advance(4 * day);
      await counter.flush();

      expect(await countOf(repo)).toBe(3);
      expect(await executions.count()).toBe(0);
    });
  });
}
