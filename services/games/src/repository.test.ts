import { createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { createGamesRepository, type GamesRepository } from './repository';

let platform: TestPlatform;
let repo: GamesRepository;
beforeEach(async () => {
  platform = await createTestPlatform('games');
  repo = createGamesRepository(platform.store);
  await repo.createIndexes();
});
afterEach(() => platform.close());

const line = (id: string) => ({ type: 'chat' as const, id, ownerUserId: 'u1', content: id, createdAtMs: 1 });

describe('channels', () => {
  test('when a write names an old version, then it is refused and nothing is appended', async () => {
    await repo.ensureChannel('1', 'u1');
    const first = await repo.saveChannel('1', 0, { game: null, nextDueAt: null, recentMessageIds: ['m1'] }, [
      line('a'),
    ]);
    expect(first).toMatchObject({ version: 1, recentMessageIds: ['m1'] });
    const stale = await repo.saveChannel('1', 0, { game: null, nextDueAt: null, recentMessageIds: ['m2'] }, [
      line('b'),
    ]);
    expect(stale).toBeNull();
    expect((await repo.findChannel('1'))?.outbox.map((entry) => entry.id)).toEqual(['a']);
  });

  test('when channels have a timer due or an outbox left, then they are due; no timer and an empty outbox are not', async () => {
    for (const id of ['idle', 'later', 'now', 'outbox']) await repo.ensureChannel(id, 'u1');
    await repo.saveChannel('later', 0, { game: null, nextDueAt: new Date(2000), recentMessageIds: [] }, []);
    await repo.saveChannel('now', 0, { game: null, nextDueAt: new Date(1000), recentMessageIds: [] }, []);
    await repo.saveChannel('outbox', 0, { game: null, nextDueAt: null, recentMessageIds: [] }, [line('a'), line('b')]);

    const due = async () => (await repo.findDueChannels(new Date(1000), 10)).map((channel) => channel._id).sort();
    expect(await due()).toEqual(['now', 'outbox']);
    const pull = (id: string) => repo.outboxCollection.updateOne({ _id: 'outbox' }, { $pull: { outbox: { id } } });
    await pull('a');
    expect((await repo.findChannel('outbox'))?.outbox.map((entry) => entry.id)).toEqual(['b']);
    await pull('b');
    expect(await due()).toEqual(['now']);
  });

  test('when another instance holds an unexpired lease, then it cannot be taken; the holder renews it; once expired anyone takes it', async () => {
    await repo.ensureChannel('1', 'u1');
    expect(await repo.acquireLease('1', 'a', new Date(0), new Date(15_000))).toBe(true);
    expect(await repo.acquireLease('1', 'b', new Date(10_000), new Date(25_000))).toBe(false);
    expect(await repo.acquireLease('1', 'a', new Date(10_000), new Date(25_000))).toBe(true);
    expect(await repo.acquireLease('1', 'b', new Date(24_999), new Date(40_000))).toBe(false);
    expect(await repo.acquireLease('1', 'b', new Date(25_001), new Date(40_000))).toBe(true);
    expect(await repo.findChannel('1')).toMatchObject({ leaseOwner: 'b', leaseUntil: new Date(40_000) });
  });
});

describe('settings and bots', () => {
  test('when settings are saved twice, then the last one is kept', async () => {
    await repo.saveSettings('u1', 5, new Date(1));
    await repo.saveSettings('u1', 6, new Date(2));
    expect(await repo.findSettings('u1')).toMatchObject({ steamAccountId: 6 });
    expect(await repo.findSettings('u2')).toBeNull();
  });

  test('when bot statuses arrive out of order, then the newest stands', async () => {
    expect(await repo.isBotRunning('u1')).toBe(false);
    await repo.recordBotStatus('u1', { isRunning: true, broadcasterUserId: '1', occurredAt: new Date(20) });
    await repo.recordBotStatus('u1', { isRunning: false, broadcasterUserId: '1', occurredAt: new Date(10) });
    expect(await repo.isBotRunning('u1')).toBe(true);
    await repo.recordBotStatus('u1', { isRunning: false, broadcasterUserId: '1', occurredAt: new Date(30) });
    expect(await repo.isBotRunning('u1')).toBe(false);
  });
});
