import { createSilentLogger } from '@kickstand/platform/log';
import { createFakeClock, createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { CommandKind, timestampFromDate, type CommandExecuted } from '@kickstand/proto';
import { createCommandUsage, type CommandUsage } from './command-usage';
import { createCommandUsageRepository, type CommandUsageRepository } from './repository';

const clock = createFakeClock(new Date('2026-11-25T18:30:00Z'));
let platform: TestPlatform;
let repo: CommandUsageRepository;
let loads: number;

beforeEach(async () => {
  platform = await createTestPlatform('commands', { clock });
  const real = createCommandUsageRepository(platform.store);
  await real.createIndexes();
  loads = 0;
  repo = {
    ...real,
    load: (...args) => {
      loads += 1;
      return real.load(...args);
    },
  };
});

afterEach(() => platform.close());

const usageOn = (on: CommandUsageRepository = repo): CommandUsage =>
  createCommandUsage({ repo: on, clock, log: createSilentLogger() });

const executed = (eventId: string, command = 'hug'): CommandExecuted =>
  ({
    eventId,
    ownerUserId: 'u-1',
    command,
    kind: CommandKind.CUSTOM,
    occurredAt: timestampFromDate(clock.now()),
    executedAt: timestampFromDate(clock.now()),
  }) as CommandExecuted;

const runsOf = async (usage: CommandUsage) => (await usage.statsOf('u-1', ['hug']))[0]?.last24Hours;

describe('usage per command: store round trips', () => {
  test('when a command runs again, then its usage is written on the version this instance wrote last, without reading it again', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('e1'));
    await usage.recordExecution(executed('e2'));
    await usage.recordExecution(executed('e3'));
    await usage.recordExecution(executed('e2')); // delivered again

    expect(loads).toBe(1);
    expect(await runsOf(usage)).toBe(3);
    expect((await repo.listOf('u-1'))[0]?.version).toBe(3);
  });

  test('when another instance wrote the command meanwhile, then the write on the old version fails and the usage is read again, counting both', async () => {
    const first = usageOn();
    const second = usageOn(createCommandUsageRepository(platform.store));
    await first.recordExecution(executed('e1'));
    await second.recordExecution(executed('e2'));
    await first.recordExecution(executed('e3'));
    await first.recordExecution(executed('e2')); // counted by the other instance

    expect(await runsOf(first)).toBe(3);
    expect(loads).toBe(2);
  });

  test('when the streamer is deleted, then a later run starts from nothing', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('e1'));
    await usage.removeAllOf('u-1');
    await usage.recordExecution(executed('e2'));

    expect(await runsOf(usage)).toBe(1);
  });
});
