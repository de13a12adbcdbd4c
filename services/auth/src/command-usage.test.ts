import { createSilentLogger } from '@kickstand/platform/log';
import type { ClaimSet, Collection, Document, Store } from '@kickstand/platform/store';
import { createFakeClock, createTestPlatform, type FakeClock, type TestPlatform } from '@kickstand/platform/testing';
import {
  assignedAbandonedAfterMs,
  createCommandCounter,
  unassignedAbandonedAfterMs,
  type CommandCounter,
} from './command-counter';
import { defaultKafkaRedeliveryWindowSeconds, inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import {
  countedExecutionsSet,
  createAuthRepository,
  flushSliceSize,
  type AuthRepository,
  type CommandExecutionDoc,
  type CommandUsageDoc,
} from './repository';

type FailingOp = 'claim' | 'has' | 'deleteMany' | 'updateMany';

/**
 * The store with one operation failing once, as an instance that stops at that point leaves the
 * store: `claim` / `has` of the counted set, `deleteMany` of command-executions, `updateMany` of
 * command-usage (the removal of a flush's pending marks).
 */
function failingOnce(store: Store, op: FailingOp): Store {
  let hasFailed = false;
  const failNow = (asked: FailingOp) => {
    if (asked !== op || hasFailed) return false;
    hasFailed = true;
    return true;
  };
  const crash = () => Promise.reject(new Error(`stopped at ${op}`));
  return {
    ...store,
    collection<T extends Document>(name: string): Collection<T> {
      const collection = store.collection<T>(name);
      return {
        ...collection,
        deleteMany: (filter) =>
          name === 'command-executions' && failNow('deleteMany') ? crash() : collection.deleteMany(filter),
        updateMany: (filter, update) =>
          name === 'command-usage' && failNow('updateMany') ? crash() : collection.updateMany(filter, update),
      };
    },
    claimSet(name, spec): ClaimSet {
      const claims = store.claimSet(name, spec);
      return {
        ...claims,
        claim: (id, at) => (failNow('claim') ? crash() : claims.claim(id, at)),
        has: (id) => (failNow('has') ? crash() : claims.has(id)),
      };
    },
  };
}

describe('command usage counts', () => {
  let platform: TestPlatform;
  let repo: AuthRepository;
  let clock: FakeClock;
  // One clock for the records and the store: with the wall clock, a record made at a fixed date
  // expires the moment it is written once that date is more than the claim lifetime ago.
  const now = new Date('2026-11-21T10:00:00Z');
  const day = 24 * 3600_000;
  const countOf = async () => (await repo.commandUsage.between('2026-11-21', '2026-11-21'))[0]?.count;
  const usageDoc = () =>
    platform.store.collection<CommandUsageDoc>('command-usage').findOne({ _id: '2026-11-21:dice' });
  const executions = () => platform.store.collection<CommandExecutionDoc>('command-executions');
  const counted = () =>
    platform.store.claimSet(countedExecutionsSet, { expireAfterSeconds: 600, dateField: 'countedAt' });
  const counterOn = (on: AuthRepository = repo): CommandCounter =>
    createCommandCounter({ repo: on, clock, log: createSilentLogger(), flushIntervalMs: 0 });
  const dice = (seenKey: string) =>
    ({ seenKey, usageId: '2026-11-21:dice', date: '2026-11-21', command: 'dice', kind: 'custom' }) as const;
  /** An execution as a flush leaves it once it took it (the store as a crash mid-flush leaves it). */
  const takenBy = (seenKey: string, flushId: string): CommandExecutionDoc => ({
    _id: seenKey,
    usageId: '2026-11-21:dice',
    date: '2026-11-21',
    command: 'dice',
    kind: 'custom',
    isCounted: false,
    claimedAt: now,
    flushId,
    flushAt: now,
  });
  /** An execution as an earlier version logged it: with a three-day expiry, counted or not. */
  const earlier = (seenKey: string, isCounted: boolean, claimedAt = now): CommandExecutionDoc => ({
    _id: seenKey,
    usageId: '2026-11-21:dice',
    date: '2026-11-21',
    command: 'dice',
    kind: 'custom',
    isCounted,
    claimedAt,
    expiresAt: new Date(claimedAt.getTime() + 3 * day),
  });

  beforeEach(async () => {
    clock = createFakeClock(now);
    platform = await createTestPlatform('auth', { clock });
    repo = createAuthRepository(platform.store);
    await repo.createIndexes();
    await repo.commandUsage.open(clock.now());
  });
  afterEach(() => platform.close());

  test('when an execution is recorded twice, then it is counted once', async () => {
    const counter = counterOn();
    expect(await counter.record(dice('event-1'))).toBe(true);
    expect(await counter.record(dice('event-1'))).toBe(false);
    expect(await counter.record(dice('event-2'))).toBe(true);
    await counter.flush();
    expect(await counter.record(dice('event-1'))).toBe(false);
    await counter.flush();
    expect(await countOf()).toBe(2);
  });

  test('when executions are recorded, then they are in memory until the flush, which stores them with no key left in the day', async () => {
    const counter = counterOn();
    for (let i = 0; i < 2000; i++) await counter.record(dice(`event-${i}`));
    expect(await countOf()).toBeUndefined();
    expect(counter.unflushed()).toEqual(
      new Map([['2026-11-21:dice', { date: '2026-11-21', command: 'dice', kind: 'custom', count: 2000 }]]),
    );

    await counter.flush();

    expect(counter.unflushed()).toEqual(new Map());
    expect(await usageDoc()).toEqual({
      _id: '2026-11-21:dice',
      date: '2026-11-21',
      command: 'dice',
      kind: 'custom',
      count: 2000,
      pending: {},
    });
    expect(await executions().count()).toBe(0);
  });

  test('when a flush takes more executions than one slice, then each write touches at most a slice and every execution is counted once', async () => {
    const writes: Array<{ collection: string; op: string; ids: number }> = [];
    const idsIn = (filter: unknown): number => {
      const id = (filter as { _id?: { $in?: unknown[] } })._id;
      return id?.$in?.length ?? -1; // -1: a filter without an id list
    };
    const watched: Store = {
      ...platform.store,
      collection<T extends Document>(name: string): Collection<T> {
        const collection = platform.store.collection<T>(name);
        return {
          ...collection,
          updateMany: (filter, update) => {
            writes.push({ collection: name, op: 'updateMany', ids: idsIn(filter) });
            return collection.updateMany(filter, update);
          },
          deleteMany: (filter) => {
            writes.push({ collection: name, op: 'deleteMany', ids: idsIn(filter) });
            return collection.deleteMany(filter);
          },
        };
      },
    };
    const counter = counterOn(createAuthRepository(watched));
    const total = 2 * flushSliceSize + 1;
    const commands = Array.from({ length: total }, (_, i) => `c${i}`);
    for (const [i, command] of commands.entries()) {
      await counter.record({
        seenKey: `event-${i}`,
        usageId: `2026-11-21:${command}`,
        date: '2026-11-21',
        command,
        kind: 'custom',
      });
    }

    await counter.flush();

    const slices = [flushSliceSize, flushSliceSize, 1];
    expect(writes).toEqual([
      ...slices.map((ids) => ({ collection: 'command-executions', op: 'updateMany', ids })),
      ...slices.map((ids) => ({ collection: 'command-executions', op: 'deleteMany', ids })),
      { collection: 'command-executions', op: 'deleteMany', ids: -1 },
      ...slices.map((ids) => ({ collection: 'command-usage', op: 'updateMany', ids })),
    ]);
    const days = await repo.commandUsage.between('2026-11-21', '2026-11-21');
    expect(
      days.map(({ command, count }) => ({ command, count })).sort((a, b) => a.command.localeCompare(b.command)),
    ).toEqual([...commands].sort().map((command) => ({ command, count: 1 })));
    const usage = await platform.store.collection<CommandUsageDoc>('command-usage').find({});
    expect(usage.filter((doc) => Object.keys(doc.pending ?? {}).length > 0)).toEqual([]);
    expect(await executions().count()).toBe(0);
    expect(await counted().has(`event-${total - 1}`)).toBe(true);
  });

  test('when a flush counted executions, then their documents are gone and their seen keys are in the counted set', async () => {
    const counter = counterOn();
    await counter.record(dice('event-1'));
    await counter.record(dice('event-2'));
    expect(await executions().count()).toBe(2);

    await counter.flush();

    expect(await executions().count()).toBe(0);
    expect(await counted().has('event-1')).toBe(true);
    expect(await counted().has('event-2')).toBe(true);
    expect(await counted().has('event-3')).toBe(false);
  });

  test('when a counted execution is delivered again within the in-process window, then it is refused and leaves no document; after it, it counts again', async () => {
    const counter = counterOn();
    await counter.record(dice('event-1'));
    await counter.flush();

    clock.advance(inProcessRedeliveryWindowSeconds * 1000 - 1000);
    expect(await counter.record(dice('event-1'))).toBe(false);
    expect(await executions().count()).toBe(0);
    await counter.flush();
    expect(await countOf()).toBe(1);

    // what is given up: a redelivery after the window counts twice
    clock.advance(2000);
    expect(await counter.record(dice('event-1'))).toBe(true);
    await counter.flush();
    expect(await countOf()).toBe(2);
  });

  test('when the window is the Kafka default, then a counted execution delivered again 3 days less a second later is refused', async () => {
    const kafkaPlatform = await createTestPlatform('auth', { clock });
    try {
      const kafkaRepo = createAuthRepository(kafkaPlatform.store, {
        redeliveryWindowSeconds: defaultKafkaRedeliveryWindowSeconds,
      });
      await kafkaRepo.createIndexes();
      await kafkaRepo.commandUsage.open(clock.now());
      const counter = counterOn(kafkaRepo);
      await counter.record(dice('event-1'));
      await counter.flush();

      clock.advance(3 * day - 1000);
      expect(await counter.record(dice('event-1'))).toBe(false);
      clock.advance(2000);
      expect(await counter.record(dice('event-1'))).toBe(true);
    } finally {
      await kafkaPlatform.close();
    }
  });

  test('when an instance stops and none starts for 4 days, then its executions are still counted, once', async () => {
    const stopped = counterOn();
    for (const key of ['event-1', 'event-2']) await stopped.record(dice(key));

    clock.advance(4 * day);
    const restarted = counterOn(createAuthRepository(platform.store));
    expect(await restarted.record(dice('event-2'))).toBe(false);
    await restarted.flush();
    await restarted.flush();

    expect(await countOf()).toBe(2);
    expect(await executions().count()).toBe(0);
  });

  test('when an instance stops before its flush, then a restarted one counts its executions exactly once, once they are abandoned', async () => {
    const crashed = counterOn();
    for (const key of ['event-1', 'event-2', 'event-3']) await crashed.record(dice(key));
    const restarted = counterOn(createAuthRepository(platform.store));
    expect(await restarted.record(dice('event-3'))).toBe(false);

    // still young: they may belong to a live instance whose flush is due
    await restarted.flush();
    expect(await countOf()).toBeUndefined();

    clock.advance(unassignedAbandonedAfterMs + 1);
    await restarted.flush();
    expect(await countOf()).toBe(3);
    await restarted.flush();
    expect(await countOf()).toBe(3);
  });

  test('when two instances count the same command, then the day holds the sum of both', async () => {
    const first = counterOn();
    const second = counterOn(createAuthRepository(platform.store));
    await first.record(dice('event-1'));
    await second.record(dice('event-2'));
    await second.record(dice('event-3'));
    await Promise.all([first.flush(), second.flush()]);
    expect(await countOf()).toBe(3);
  });

  test('when a flush stopped after increasing the count, then its recovery moves the executions to the counted set and adds nothing again', async () => {
    await executions().insertOne(takenBy('event-1', 'flush-a'));
    await executions().insertOne(takenBy('event-2', 'flush-a'));
    await platform.store.collection<CommandUsageDoc>('command-usage').insertOne({
      _id: '2026-11-21:dice',
      date: '2026-11-21',
      command: 'dice',
      count: 2,
      pending: { 'flush-a': true },
    });
    const counter = counterOn();

    await counter.flush();
    expect(await executions().count({ isCounted: false })).toBe(2);

    clock.advance(assignedAbandonedAfterMs + 1);
    await counter.flush();
    expect(await usageDoc()).toEqual({
      _id: '2026-11-21:dice',
      date: '2026-11-21',
      command: 'dice',
      count: 2,
      pending: {},
    });
    expect(await executions().count()).toBe(0);
    expect(await counter.record(dice('event-1'))).toBe(false);
  });

  test('when a flush stopped after taking executions, before counting them, then its recovery counts them once', async () => {
    await executions().insertOne(takenBy('event-1', 'flush-a'));
    await executions().insertOne(takenBy('event-2', 'flush-a'));
    const counter = counterOn();

    clock.advance(assignedAbandonedAfterMs + 1);
    await counter.flush();
    await counter.flush();

    expect(await countOf()).toBe(2);
  });

  test('when the store refuses a flush, then the executions stay in memory and the next flush counts them', async () => {
    let failuresLeft = 1;
    const flaky: AuthRepository = {
      ...repo,
      commandUsage: {
        ...repo.commandUsage,
        assign: (...args) => {
          if (failuresLeft > 0) {
            failuresLeft -= 1;
            return Promise.reject(new Error('store down'));
          }
          return repo.commandUsage.assign(...args);
        },
      },
    };
    const counter = counterOn(flaky);
    await counter.record(dice('event-1'));

    await expect(counter.flush()).rejects.toThrow('store down');
    expect(counter.unflushed().get('2026-11-21:dice')?.count).toBe(1);
    await counter.record(dice('event-2'));
    await counter.flush();

    expect(await countOf()).toBe(2);
    expect(counter.unflushed()).toEqual(new Map());
  });

  describe('when an instance stops at each step of counting, then every execution is counted exactly once', () => {
    /** Records two executions on a store failing at `op`, flushes (which fails), and hands over. */
    async function stoppedAt(op: FailingOp): Promise<CommandCounter> {
      const stopping = counterOn(createAuthRepository(failingOnce(platform.store, op)));
      await stopping.record(dice('event-1'));
      await stopping.record(dice('event-2'));
      await expect(stopping.flush()).rejects.toThrow(`stopped at ${op}`);
      return counterOn(createAuthRepository(platform.store));
    }

    test('after increasing the counts, before claiming the seen keys: a redelivery finds the document; the recovery adds nothing again', async () => {
      const other = await stoppedAt('claim');
      expect(await countOf()).toBe(2);
      expect(await other.record(dice('event-1'))).toBe(false);

      clock.advance(assignedAbandonedAfterMs + 1);
      await other.flush();

      expect(await countOf()).toBe(2);
      expect((await usageDoc())?.pending).toEqual({});
      expect(await executions().count()).toBe(0);
      expect(await other.record(dice('event-2'))).toBe(false);
    });

    test('after claiming the seen keys, before deleting the documents: a redelivery is refused; the recovery deletes them', async () => {
      const other = await stoppedAt('deleteMany');
      expect(await executions().count()).toBe(2);
      expect(await counted().has('event-1')).toBe(true);
      expect(await other.record(dice('event-1'))).toBe(false);

      clock.advance(assignedAbandonedAfterMs + 1);
      await other.flush();

      expect(await countOf()).toBe(2);
      expect((await usageDoc())?.pending).toEqual({});
      expect(await executions().count()).toBe(0);
      expect(await other.record(dice('event-2'))).toBe(false);
    });

    test('after deleting the documents, before removing the pending mark: a redelivery is refused by the counted set (the mark stays)', async () => {
      const other = await stoppedAt('updateMany');
      expect(await executions().count()).toBe(0);
      expect(await other.record(dice('event-1'))).toBe(false);
      expect(await other.record(dice('event-2'))).toBe(false);

      clock.advance(assignedAbandonedAfterMs + 1);
      await other.flush();

      expect(await countOf()).toBe(2);
      expect(Object.keys((await usageDoc())?.pending ?? {})).toHaveLength(1);
    });

    test('a redelivery after the count whose instance stopped between its insert and its check: the recovery deletes it uncounted', async () => {
      const counter = counterOn();
      await counter.record(dice('event-1'));
      await counter.flush();
      const stopping = counterOn(createAuthRepository(failingOnce(platform.store, 'has')));
      await expect(stopping.record(dice('event-1'))).rejects.toThrow('stopped at has');
      expect(await executions().count()).toBe(1);

      clock.advance(unassignedAbandonedAfterMs + 1);
      await counter.flush();

      expect(await countOf()).toBe(1);
      expect(await executions().count()).toBe(0);
    });
  });

  describe('when documents of an earlier version (three-day expiry) are in the store', () => {
    test('an uncounted one loses its expiry at open and is counted after more than 3 days', async () => {
      await executions().insertOne(earlier('event-1', false));

      await createAuthRepository(platform.store).commandUsage.open(clock.now());
      clock.advance(4 * day);
      const counter = counterOn();
      await counter.flush();

      expect(await countOf()).toBe(1);
      expect(await executions().count()).toBe(0);
    });

    test('a counted one older than the redelivery window goes at open; a younger one stays and refuses its redelivery', async () => {
      const minute = 60_000;
      const windowMs = inProcessRedeliveryWindowSeconds * 1000;
      await executions().insertOne(earlier('event-1', true, new Date(now.getTime() - windowMs - minute)));
      await executions().insertOne(earlier('event-2', true, new Date(now.getTime() - windowMs + minute)));

      await createAuthRepository(platform.store).commandUsage.open(clock.now());

      expect((await executions().find({})).map(({ _id }) => _id)).toEqual(['event-2']);
      const counter = counterOn();
      expect(await counter.record(dice('event-2'))).toBe(false);
      expect(await counter.record(dice('event-1'))).toBe(true);
    });

    test('with Kafka, a counted one refuses its redelivery until its expiry, and is never deleted or counted by a flush', async () => {
      await executions().insertOne(earlier('event-1', true));
      const kafkaRepo = createAuthRepository(platform.store, {
        redeliveryWindowSeconds: defaultKafkaRedeliveryWindowSeconds,
      });
      await kafkaRepo.commandUsage.open(clock.now());
      const counter = counterOn(kafkaRepo);

      clock.advance(3 * day - 1000);
      expect(await counter.record(dice('event-1'))).toBe(false);
      await counter.flush();
      expect(await countOf()).toBeUndefined();
      expect(await executions().count({ isCounted: true })).toBe(1);

      clock.advance(2000);
      expect(await counter.record(dice('event-1'))).toBe(true);
    });

    test('a flush it left half done on MongoDB (some marked counted) is finished without counting again, and the counted ones stay', async () => {
      await executions().insertOne({ ...earlier('event-1', true), flushId: 'flush-a', flushAt: now });
      await executions().insertOne({ ...earlier('event-2', false), flushId: 'flush-a', flushAt: now });
      await platform.store.collection<CommandUsageDoc>('command-usage').insertOne({
        _id: '2026-11-21:dice',
        date: '2026-11-21',
        command: 'dice',
        count: 2,
        pending: { 'flush-a': true },
      });
      await createAuthRepository(platform.store).commandUsage.open(clock.now());
      const counter = counterOn();

      clock.advance(assignedAbandonedAfterMs + 1);
      await counter.flush();

      expect(await countOf()).toBe(2);
      expect(await executions().find({}, { sort: { _id: 1 } })).toEqual([
        { ...earlier('event-1', true), flushId: 'flush-a', flushAt: now },
      ]);
      expect(await counted().has('event-2')).toBe(true);
      expect(await counter.record(dice('event-1'))).toBe(false);
      expect(await counter.record(dice('event-2'))).toBe(false);
    });
  });
});
