import { inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore, type Store } from '@kickstand/platform/store';
import { createFakeClock, createTempDirs } from '@kickstand/platform/testing';
import { CommandKind, timestampFromDate, type CommandExecuted } from '@kickstand/proto';
import { createCommandUsage, type CommandUsage } from './command-usage';
import { createCommandUsageRepository, type CommandUsageDoc, type CommandUsageRepository } from './repository';

const start = new Date('2026-11-25T18:30:00Z');
const clock = createFakeClock(start);
const windowMs = inProcessRedeliveryWindowSeconds * 1000;
const dirs = createTempDirs('command-usage');
let dir: string;
let store: Store;
let repo: CommandUsageRepository;

const openStore = () => createEmbeddedStore({ dir, clock, log: createSilentLogger() });

async function openRepo(): Promise<CommandUsageRepository> {
  const opened = createCommandUsageRepository(store);
  await opened.createIndexes();
  return opened;
}

beforeEach(async () => {
  clock.set(start);
  dir = await dirs.make();
  store = await openStore();
  repo = await openRepo();
});

afterEach(async () => {
  await store.close();
  await dirs.removeAll();
});

const usageOn = (on: CommandUsageRepository = repo): CommandUsage =>
  createCommandUsage({ repo: on, clock, log: createSilentLogger() });

const executed = (eventId: string, at: Date = clock.now(), command = 'hug'): CommandExecuted =>
  ({
    eventId,
    ownerUserId: 'u-1',
    command,
    kind: CommandKind.CUSTOM,
    occurredAt: timestampFromDate(at),
    executedAt: timestampFromDate(at),
  }) as CommandExecuted;

const statsNow = async (usage: CommandUsage = usageOn()) => (await usage.statsOf('u-1', ['hug']))[0];
const storedDoc = async () => (await repo.listOf('u-1'))[0];

/** The repository with `addRun` replaced: a crash or a failed write around the increment. */
const withAddRun = (addRun: CommandUsageRepository['addRun']): CommandUsageRepository => ({ ...repo, addRun });

describe('usage per command: counting each command.executed once', () => {
  test('when command.executed is delivered again, then it is counted once', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('e1'));
    await usage.recordExecution(executed('e2'));
    await usage.recordExecution(executed('e1')); // delivered again

    expect(await statsNow(usage)).toEqual({
      command: 'hug',
      last24Hours: 2,
      last7Days: 2,
      lastUsedAt: '2026-11-25T18:30:00.000Z',
    });
  });

  test('when a run is counted, then the document holds its hour buckets and last use only (no event ids)', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('e1'));
    await usage.recordExecution(executed('e2', new Date('2026-11-25T17:10:00Z')));

    expect(await storedDoc()).toEqual({
      _id: 'u-1:hug',
      userId: 'u-1',
      command: 'hug',
      hours: { '2026-11-25T18': 1, '2026-11-25T17': 1 },
      lastUsedAt: new Date('2026-11-25T18:30:00Z'),
    });
  });

  test('when the store is opened again (a restart), then a redelivery of a counted message is still not counted', async () => {
    await usageOn().recordExecution(executed('e1'));
    await store.close();
    store = await openStore();
    repo = await openRepo();

    const usage = usageOn();
    await usage.recordExecution(executed('e1')); // Kafka resumes from before it

    expect((await statsNow(usage))?.last24Hours).toBe(1);
  });

  test('when the process stops after the claim and before the increment, then the redelivery is not counted (at most once, never twice)', async () => {
    const crashing = usageOn(
      withAddRun(() => {
        throw new Error('process stopped');
      }),
    );
    await expect(crashing.recordExecution(executed('e1'))).rejects.toThrow('process stopped');

    const usage = usageOn();
    await usage.recordExecution(executed('e1')); // delivered again
    expect((await statsNow(usage))?.last24Hours).toBe(0);
  });

  test('when the process stops after the increment and before the message is acknowledged, then the redelivery is not counted again', async () => {
    const crashing = usageOn(
      withAddRun(async (run) => {
        await repo.addRun(run);
        throw new Error('process stopped');
      }),
    );
    await expect(crashing.recordExecution(executed('e1'))).rejects.toThrow('process stopped');

    const usage = usageOn();
    await usage.recordExecution(executed('e1')); // delivered again
    expect((await statsNow(usage))?.last24Hours).toBe(1);
  });

  test('when two instances count the same message at once, then it is counted once', async () => {
    const other = usageOn(createCommandUsageRepository(store));
    await Promise.all([usageOn().recordExecution(executed('e1')), other.recordExecution(executed('e1'))]);

    expect((await statsNow())?.last24Hours).toBe(1);
  });

  test('when the redelivery window has passed, then the counted id is forgotten', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('e1'));
    clock.advance(windowMs + 1000);
    // a message the bus could no longer deliver again: counted as a new one
    await usage.recordExecution(executed('e1', start));

    expect((await statsNow(usage))?.last24Hours).toBe(2);
  });

  test('when a late run older than the kept 7 days arrives, then it counts in no bucket and leaves a newer last use', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('e1'));
    await usage.recordExecution(executed('late', new Date('2026-11-10T10:00:00Z')));

    expect(await storedDoc()).toMatchObject({
      hours: { '2026-11-25T18': 1 },
      lastUsedAt: new Date('2026-11-25T18:30:00Z'),
    });
  });

  test('when the streamer is deleted, then a later run starts from nothing', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('e1'));
    await usage.removeAllOf('u-1');
    await usage.recordExecution(executed('e2'));

    expect((await statsNow(usage))?.last24Hours).toBe(1);
  });
});

describe('usage per command: old buckets', () => {
  test('when a bucket has left the kept 7 days, then the next write drops it and the stats stay the same', async () => {
    const dropped: string[][] = [];
    const usage = usageOn({
      ...repo,
      dropOld: (id, buckets, legacy) => {
        dropped.push([...buckets]);
        return repo.dropOld(id, buckets, legacy);
      },
    });
    await usage.recordExecution(executed('e1'));
    clock.advance(3 * 3_600_000);
    await usage.recordExecution(executed('e2'));
    await usage.recordExecution(executed('e3'));
    expect(dropped).toEqual([]);

    clock.set(new Date('2026-12-02T18:00:00Z')); // the first run's hour has just left the 7 days
    const before = await statsNow(usage);
    await usage.recordExecution(executed('e4'));

    expect(dropped).toEqual([['2026-11-25T18']]);
    expect((await storedDoc())?.hours).toEqual({ '2026-11-25T21': 2, '2026-12-02T18': 1 });
    expect(await statsNow(usage)).toEqual({
      command: 'hug',
      last24Hours: 1,
      last7Days: (before?.last7Days ?? 0) + 1,
      lastUsedAt: '2026-12-02T18:00:00.000Z',
    });
  });
});

describe('usage per command: documents of earlier versions', () => {
  /** A document as the earlier version wrote it: the counted event ids listed in it, under a version. */
  const earlierDoc: CommandUsageDoc = {
    _id: 'u-1:hug',
    userId: 'u-1',
    command: 'hug',
    hours: { '2026-11-25T17': 2, '2026-11-25T18': 1 },
    lastUsedAt: new Date('2026-11-25T18:20:00Z'),
    recentEventIds: ['old-1', 'old-2', 'old-3'],
    version: 3,
  };

  beforeEach(async () => {
    await store.collection<CommandUsageDoc>('command-usage').insertOne(earlierDoc);
  });

  test('when an earlier version counted a message, then its redelivery is not counted again and new runs add to its buckets', async () => {
    const usage = usageOn();
    await usage.recordExecution(executed('old-2')); // delivered again after the upgrade
    await usage.recordExecution(executed('new-1'));

    expect(await statsNow(usage)).toEqual({
      command: 'hug',
      last24Hours: 4,
      last7Days: 4,
      lastUsedAt: '2026-11-25T18:30:00.000Z',
    });
    // within the redelivery window after the start, the list stays
    expect((await storedDoc())?.recentEventIds).toEqual(['old-1', 'old-2', 'old-3']);
  });

  test('when a redelivery window has passed since the start, then the next write removes the earlier version’s fields', async () => {
    const usage = usageOn();
    clock.advance(windowMs);
    await usage.recordExecution(executed('new-1'));

    expect(await storedDoc()).toEqual({
      _id: 'u-1:hug',
      userId: 'u-1',
      command: 'hug',
      hours: { '2026-11-25T17': 2, '2026-11-25T18': 2 },
      lastUsedAt: new Date(Date.parse('2026-11-25T18:30:00Z') + windowMs),
    });
  });
});
