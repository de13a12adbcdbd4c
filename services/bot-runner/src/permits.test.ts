import { defaultModerationFilters, type ModerationFilters } from '@kickstand/api-contract';
import { createEmbeddedStore } from '@kickstand/platform/store';
import { createFakeClock, createTestStore, type TestStore } from '@kickstand/platform/testing';
import type { ChatLine } from './dispatch';
import { createPermitIndexes, createPermits, judgeWithPermit, permitCollection, type PermitDoc } from './permits';

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
let testStore: TestStore;

beforeEach(async () => {
  testStore = await createTestStore('bot-runner-permits', { clock });
  await createPermitIndexes(testStore.store);
});

afterEach(() => testStore.close());

describe('permits in the store', () => {
  test('when a permit is given, then it holds for 60 s, for that channel and user (any case), and is spent once', async () => {
    const permits = createPermits(testStore.store, clock);
    await permits.grant('42', 'Viewer_One');

    expect(await permits.holds('42', 'viewer_one')).toBe(true);
    expect(await permits.holds('43', 'viewer_one')).toBe(false);
    expect(await permits.spend('42', 'VIEWER_ONE')).toBe(true);
    expect(await permits.holds('42', 'viewer_one')).toBe(false);
    expect(await permits.spend('42', 'viewer_one')).toBe(false);
  });

  test('when 60 s have passed since the permit, then it no longer holds and cannot be spent', async () => {
    const permits = createPermits(testStore.store, clock);
    await permits.grant('42', 'viewer_one');

    clock.advance(59_999);
    expect(await permits.holds('42', 'viewer_one')).toBe(true);
    clock.advance(1);
    expect(await permits.holds('42', 'viewer_one')).toBe(false);
    expect(await permits.spend('42', 'viewer_one')).toBe(false);
  });

  test('when a permit is given again, then its 60 s start afresh', async () => {
    const permits = createPermits(testStore.store, clock);
    await permits.grant('42', 'viewer_one');
    clock.advance(50_000);
    await permits.grant('42', 'viewer_one');
    clock.advance(50_000);

    expect(await permits.holds('42', 'viewer_one')).toBe(true);
  });

  test('when the store is closed and opened again, then the permit is still there with its expiry', async () => {
    await createPermits(testStore.store, clock).grant('42', 'viewer_one');
    await testStore.store.close();
    const reopened = await createEmbeddedStore({ dir: testStore.dir, clock });
    try {
      const permits = createPermits(reopened, clock);
      expect(await reopened.collection<PermitDoc>(permitCollection).find({})).toEqual([
        { _id: '42:viewer_one', broadcasterUserId: '42', username: 'viewer_one', grantedAt: clock.now() },
      ]);
      expect(await permits.holds('42', 'viewer_one')).toBe(true);
      clock.advance(60_000);
      expect(await permits.holds('42', 'viewer_one')).toBe(false);
    } finally {
      await reopened.close();
    }
  });
});

describe('judging with a permit', () => {
  const line = (content: string): ChatLine => ({
    messageId: 'm1',
    broadcasterUserId: '42',
    broadcasterUsername: 'channel',
    ownerUserId: 'u1',
    senderUsername: 'Viewer_One',
    senderUserId: '7',
    content,
    isFromBot: false,
    sentAtMs: 100_000,
    senderBadges: [],
  });
  const filters: ModerationFilters = {
    ...defaultModerationFilters,
    links: { ...defaultModerationFilters.links, enabled: true, allowedDomains: [] },
    caps: { ...defaultModerationFilters.caps, enabled: true, minLetters: 5, percent: 70 },
  };
  /** Answers as told and counts the reads. */
  const permitsHolding = (held: boolean) => {
    const asked: string[] = [];
    return {
      asked,
      holds: (broadcasterUserId: string, username: string) => {
        asked.push(`${broadcasterUserId}:${username}`);
        return Promise.resolve(held);
      },
    };
  };

  test('when the line has no link, then the store is not read', async () => {
    const permits = permitsHolding(true);
    expect(await judgeWithPermit(permits, line('hello there'), filters, [])).toEqual({
      kind: 'pass',
      usedPermit: false,
    });
    expect(permits.asked).toEqual([]);
  });

  test('when a link comes from a viewer with a permit, then it passes on the permit', async () => {
    const permits = permitsHolding(true);
    expect(await judgeWithPermit(permits, line('see one.example.net'), filters, [])).toEqual({
      kind: 'pass',
      usedPermit: true,
    });
    expect(permits.asked).toEqual(['42:Viewer_One']);
  });

  test('when a link comes without a permit, then the links filter catches it', async () => {
    expect(await judgeWithPermit(permitsHolding(false), line('see one.example.net'), filters, [])).toMatchObject({
      kind: 'caught',
      filter: 'links',
    });
  });

  test('when a permitted link breaks another filter, then that filter catches it (the permit covers the link only)', async () => {
    expect(await judgeWithPermit(permitsHolding(true), line('SEE ONE.EXAMPLE.NET NOW'), filters, [])).toMatchObject({
      kind: 'caught',
      filter: 'caps',
    });
  });
});
