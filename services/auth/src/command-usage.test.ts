import { createFakeClock, createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { createAuthRepository, type AuthRepository, type CommandUsageDoc } from './repository';

interface ExecutionDoc {
  _id: string;
  usageId: string;
  isCounted: boolean;
  expiresAt: Date;
}

describe('command usage counts', () => {
  let platform: TestPlatform;
  let repo: AuthRepository;
  // One clock for the records and the store: with the wall clock, a record made at a fixed date
  // expires the moment it is written once that date is more than the claim lifetime ago.
  const now = new Date('2026-11-21T10:00:00Z');
  const later = new Date('2099-01-01T00:00:00Z');
  const countOf = async () => (await repo.commandUsage.between('2026-11-21', '2026-11-21'))[0]?.count;

  beforeEach(async () => {
    platform = await createTestPlatform('auth', { clock: createFakeClock(now) });
    repo = createAuthRepository(platform.store);
    await repo.createIndexes();
  });
  afterEach(() => platform.close());

  test('when an execution is recorded twice, then it is counted once', async () => {
    expect(await repo.commandUsage.record('2026-11-21', 'dice', 'event-1', now)).toBe(true);
    expect(await repo.commandUsage.record('2026-11-21', 'dice', 'event-1', now)).toBe(false);
    expect(await repo.commandUsage.record('2026-11-21', 'dice', 'event-2', now)).toBe(true);
    expect(await countOf()).toBe(2);
  });

  test('when thousands of executions are counted, then the day document holds no key of theirs', async () => {
    for (let i = 0; i < 2000; i++) await repo.commandUsage.record('2026-11-21', 'dice', `event-${i}`, now);
    expect(await countOf()).toBe(2000);
    const [day] = await platform.store.collection<CommandUsageDoc>('command-usage').find({});
    expect(day).toEqual({
      _id: '2026-11-21:dice',
      date: '2026-11-21',
      command: 'dice',
      kind: 'custom',
      count: 2000,
      pending: {},
    });
  });

  test('when an earlier attempt stopped after counting, then the retry does not count it again', async () => {
    // as if the process died after the increment, before the execution was marked counted
    await platform.store
      .collection<ExecutionDoc>('command-executions')
      .insertOne({ _id: 'event-1', usageId: '2026-11-21:dice', isCounted: false, expiresAt: later });
    await platform.store.collection<CommandUsageDoc>('command-usage').insertOne({
      _id: '2026-11-21:dice',
      date: '2026-11-21',
      command: 'dice',
      count: 1,
      pending: { 'event-1': true },
    });
    expect(await repo.commandUsage.record('2026-11-21', 'dice', 'event-1', now)).toBe(false);
    expect(await countOf()).toBe(1);
    expect(await repo.commandUsage.record('2026-11-21', 'dice', 'event-1', now)).toBe(false);
    expect(
      (await platform.store.collection<CommandUsageDoc>('command-usage').findOne({ _id: '2026-11-21:dice' }))?.pending,
    ).toEqual({});
  });

  test('when an earlier attempt stopped before counting, then the retry counts it', async () => {
    // as if the process died after claiming the execution, before the increment
    await platform.store
      .collection<ExecutionDoc>('command-executions')
      .insertOne({ _id: 'event-1', usageId: '2026-11-21:dice', isCounted: false, expiresAt: later });
    expect(await repo.commandUsage.record('2026-11-21', 'dice', 'event-1', now)).toBe(true);
    expect(await countOf()).toBe(1);
    expect(await repo.commandUsage.record('2026-11-21', 'dice', 'event-1', now)).toBe(false);
  });
});
