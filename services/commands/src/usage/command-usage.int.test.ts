import { randomUUID } from 'node:crypto';
import { createSilentLogger } from '@kickstand/platform/log';
import { createMongoStore, type Store } from '@kickstand/platform/store';
import { createFakeClock } from '@kickstand/platform/testing';
import { CommandKind, timestampFromDate, type CommandExecuted } from '@kickstand/proto';
import { createCommandUsage, type CommandUsage } from './command-usage';
import { countedEventsSet, createCommandUsageRepository, type CommandUsageDoc } from './repository';

/**
 * Usage per command on a real engine (MongoDB or SecantusDB at MONGO_URL, e.g.
 * `bash scripts/with-engines.sh npx jest services/commands/src/usage/command-usage.int.test.ts`):
 * two instances (two connections) on one database, the counted set as documents, `$inc`/`$max`
 * with an upsert, and a document an earlier version left (its ids stop a redelivery through the
 * upsert's duplicate key). Skipped with one line without MONGO_URL, unless CI requires it.
 *
 * The fake clock starts at the wall clock's time and only moves forward: the engine's own TTL
 * monitor (wall clock) must not delete what the test still reads.
 */
const url = process.env.MONGO_URL ?? '';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';
const hour = 3_600_000;

if (!url && isRequired) {
  test('when CI requires integration suites, then MONGO_URL must be set', () => {
    throw new Error('CI=true and REQUIRE_INTEGRATION=1, but MONGO_URL is not set');
  });
} else {
  if (!url) process.stdout.write('commands usage on a real engine skipped: set MONGO_URL (scripts/with-engines.sh)\n');
  const describeWithMongo = url ? describe : describe.skip;

  describeWithMongo('usage per command on a real store', () => {
    const clock = createFakeClock(new Date());
    let dbName: string;
    let stores: Store[] = [];

    const usageOn = async (): Promise<CommandUsage> => {
      const store = await createMongoStore({ url, dbName, clock });
      stores.push(store);
      const repo = createCommandUsageRepository(store);
      await repo.createIndexes();
      return createCommandUsage({ repo, clock, log: createSilentLogger() });
    };
    const executed = (eventId: string, at: Date = clock.now()): CommandExecuted =>
      ({
        eventId,
        ownerUserId: 'u-1',
        command: 'hug',
        kind: CommandKind.CUSTOM,
        occurredAt: timestampFromDate(at),
        executedAt: timestampFromDate(at),
      }) as CommandExecuted;
    const runsOf = async (usage: CommandUsage) => (await usage.statsOf('u-1', ['hug']))[0];
    const stored = () => stores[0]?.collection<CommandUsageDoc>('command-usage').findOne({ _id: 'u-1:hug' });

    beforeEach(() => {
      dbName = `kickstand-command-usage-${randomUUID().slice(0, 8)}`;
      stores = [];
    });

    afterEach(async () => {
      // the database is this test's own; empty what it wrote
      const [first] = stores;
      for (const name of ['command-usage', countedEventsSet]) await first?.collection(name).deleteMany({});
      for (const store of stores) await store.close();
    });

    test('when two instances get the same messages, then each is counted once and the last use is the newest', async () => {
      const [a, b] = [await usageOn(), await usageOn()];
      const earlier = new Date(clock.now().getTime() - 60_000);
      await Promise.all([a.recordExecution(executed('e1')), b.recordExecution(executed('e1'))]);
      await a.recordExecution(executed('e2', earlier));
      await b.recordExecution(executed('e2', earlier));

      expect((await runsOf(a))?.last24Hours).toBe(2);
      expect((await runsOf(b))?.lastUsedAt).toBe(clock.now().toISOString());
      expect(await stores[0]?.collection(countedEventsSet).count()).toBe(2);
    });

    test('when a bucket has left the kept 7 days, then the next write drops it', async () => {
      const usage = await usageOn();
      await usage.recordExecution(executed('e1'));
      clock.advance(8 * 24 * hour);
      await usage.recordExecution(executed('e2'));

      expect(Object.keys((await stored())?.hours ?? {})).toEqual([clock.now().toISOString().slice(0, 13)]);
    });

    test('when an earlier version counted a message, then its redelivery is not counted again; a window later its ids go', async () => {
      const usage = await usageOn();
      const bucket = clock.now().toISOString().slice(0, 13);
      await stores[0]?.collection<CommandUsageDoc>('command-usage').insertOne({
        _id: 'u-1:hug',
        userId: 'u-1',
        command: 'hug',
        hours: { [bucket]: 1 },
        lastUsedAt: clock.now(),
        recentEventIds: ['old-1'],
        version: 1,
      });
      await usage.recordExecution(executed('old-1'));
      expect((await runsOf(usage))?.last24Hours).toBe(1);

      clock.advance(11 * 60_000);
      await usage.recordExecution(executed('new-1'));
      const hours: Record<string, number> = { [bucket]: 1 };
      const now = clock.now().toISOString().slice(0, 13);
      hours[now] = (hours[now] ?? 0) + 1;
      expect(await stored()).toEqual({ _id: 'u-1:hug', userId: 'u-1', command: 'hug', hours, lastUsedAt: clock.now() });
    });
  });
}
