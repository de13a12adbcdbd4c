import { randomUUID } from 'node:crypto';
import { kickstandTopics } from '@kickstand/platform/bus';
import { createSilentLogger } from '@kickstand/platform/log';
import { createMongoStore, type Store } from '@kickstand/platform/store';
import { createFakeClock, createTestPlatform, recordPublished, type TestPlatform } from '@kickstand/platform/testing';
import { createChannelsRepository } from './channels';
import { createLease } from './lease';
import { createTimerScheduler, type TimerScheduler } from './timer-scheduler';
import { createTimersRepository } from './timers';

/**
 * The timers' lease and post claim on a real engine (MongoDB or SecantusDB at MONGO_URL, e.g.
 * `bash scripts/with-engines.sh npx jest services/bot-runner/src/timer-lease.int.test.ts`): two
 * bot-runners, each with its own connection (two pods), tick together round after round, and each
 * due post reaches the bus once. Skipped with one line without MONGO_URL, unless CI requires it.
 */
const url = process.env.MONGO_URL ?? '';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';
const dbName = `kickstand-timers-${randomUUID().slice(0, 8)}`;
const minute = 60_000;

if (!url && isRequired) {
  test('when CI requires integration suites, then MONGO_URL must be set', () => {
    throw new Error('CI=true and REQUIRE_INTEGRATION=1, but MONGO_URL is not set');
  });
} else {
  if (!url) process.stdout.write('timer lease on a real engine skipped: set MONGO_URL (scripts/with-engines.sh)\n');
  const describeWithMongo = url ? describe : describe.skip;

  describeWithMongo('timer loop on a real store', () => {
    const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
    const owner = 'u-int';
    const channel = '4377088';
    let platform: TestPlatform;
    let stores: Store[] = [];

    beforeAll(async () => {
      platform = await createTestPlatform('bot-runner', { clock });
      stores = [await createMongoStore({ url, dbName, clock }), await createMongoStore({ url, dbName, clock })];
    });

    afterAll(async () => {
      // the database is this run's own; empty what it wrote
      for (const name of ['timers', 'channels', 'leases']) await stores[0]?.collection(name).deleteMany({});
      for (const store of stores) await store.close();
      await platform.close();
    });

    test('when two bot-runners on one database tick together, then each interval posts once', async () => {
      const recorded = recordPublished(platform.bus, kickstandTopics);
      const runners: TimerScheduler[] = stores.map((store, index) =>
        createTimerScheduler({
          channels: createChannelsRepository(store),
          timers: createTimersRepository(store),
          botOf: () => ({ isRunning: true, broadcasterUserId: channel }),
          bus: recorded.bus,
          lease: createLease({ store, name: 'bot-runner.timers', owner: `pod-${index}`, ttlMs: 45_000, clock }),
          clock,
          log: createSilentLogger(),
          minuteMs: minute,
          tickMs: 15_000,
        }),
      );
      const [first] = stores;
      if (!first) throw new Error('no store');
      const timers = createTimersRepository(first);
      const channels = createChannelsRepository(first);
      await timers.add(owner, { message: 'one', intervalMinutes: 5, minChatLines: 0 }, clock.now().getTime());
      clock.advance(1);
      await timers.add(owner, { message: 'two', intervalMinutes: 5, minChatLines: 0 }, clock.now().getTime());
      await channels.setEnabledTimers(owner, 2);
      const nowMs = clock.now().getTime();
      await channels.applyStatus(owner, channel, { isLive: true, startedAtMs: nowMs, title: undefined }, nowMs);

      for (let round = 0; round < 3; round += 1) {
        clock.advance(5 * minute);
        await Promise.all(runners.flatMap((runner) => [runner.tick(), runner.tick()]));
        // the lease passes to the other pod when its holder misses its renewals
        if (round === 1) clock.advance(60_000);
      }

      expect(recorded.published('chat.send').map((message) => message.content)).toEqual(['one', 'two', 'one']);
      for (const runner of runners) await runner.stop();
    });
  });
}
