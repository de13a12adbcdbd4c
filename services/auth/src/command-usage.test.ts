import { createSilentLogger } from '@kickstand/platform/log';
import { createFakeClock, createTestPlatform, type FakeClock, type TestPlatform } from '@kickstand/platform/testing';
import {
  assignedAbandonedAfterMs,
  createCommandCounter,
  unassignedAbandonedAfterMs,
  type CommandCounter,
} from './command-counter';
import {
  createAuthRepository,
  type AuthRepository,
  type CommandExecutionDoc,
  type CommandUsageDoc,
} from './repository';

describe('command usage counts', () => {
  let platform: TestPlatform;
  let repo: AuthRepository;
  let clock: FakeClock;
  // One clock for the records and the store: with the wall clock, a record made at a fixed date
  // expires the moment it is written once that date is more than the claim lifetime ago.
  const now = new Date('2026-11-21T10:00:00Z');
  const countOf = async () => (await repo.commandUsage.between('2026-11-21', '2026-11-21'))[0]?.count;
  const usageDoc = () =>
    platform.store.collection<CommandUsageDoc>('command-usage').findOne({ _id: '2026-11-21:dice' });
  const executions = () => platform.store.collection<CommandExecutionDoc>('command-executions');
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
    expiresAt: new Date('2026-11-24T10:00:00Z'),
  });

  beforeEach(async () => {
    clock = createFakeClock(now);
    platform = await createTestPlatform('auth', { clock });
    repo = createAuthRepository(platform.store);
    await repo.createIndexes();
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
    expect(await executions().count({ isCounted: false })).toBe(0);
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

  test('when a flush stopped after increasing the count, then its recovery marks the executions counted and adds nothing again', async () => {
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
    expect(await executions().count({ isCounted: false })).toBe(0);
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
});
