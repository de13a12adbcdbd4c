import type { Document, NewDocument, Store } from '@kickstand/platform/store';
import { createFakeClock, createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { createKickLinkRepository, retention, type DeadLetterDoc, type KickLinkRepository } from './repository';

const clock = createFakeClock(new Date('2026-03-02T18:05:00Z'));
let platform: TestPlatform;
let repo: KickLinkRepository;

beforeAll(async () => {
  platform = await createTestPlatform('kick-link', { clock });
  repo = createKickLinkRepository(platform.store, { oauthStateSeconds: 600 });
  await repo.createIndexes();
});

afterAll(async () => {
  await platform.close();
});

const letter = (n: number): DeadLetterDoc => ({
  _id: `m-${String(n).padStart(5, '0')}`,
  headers: {
    messageId: `m-${n}`,
    subscriptionId: 's',
    signature: 'sig',
    timestamp: '2026-03-02T18:04:11Z',
    eventType: 'channel.hype_train.started',
    eventVersion: '1',
  },
  rawBody: '{}',
  reason: 'unknown-type: channel.hype_train.started',
  broadcasterUserId: null,
  sentAt: new Date('2026-03-02T18:04:11Z'),
  receivedAt: new Date(Date.UTC(2026, 2, 2, 18, 0, 0, n)),
});

describe('dead letters', () => {
  test('when more than 1,000 are kept, then only the newest 1,000 stay', async () => {
    expect(retention.deadLetterLimit).toBe(1000);
    for (let n = 1; n <= 1002; n += 1) await repo.deadLetters.keep(letter(n));

    expect(await repo.deadLetters.count()).toBe(1000);
    expect(await repo.deadLetters.get(letter(1)._id)).toBeNull();
    expect(await repo.deadLetters.get(letter(2)._id)).toBeNull();
    expect((await repo.deadLetters.list({ skip: 0, limit: 1 }))[0]?._id).toBe(letter(1002)._id);
    expect((await repo.deadLetters.list({ skip: 999, limit: 5 })).map((doc) => doc._id)).toEqual([letter(3)._id]);
  });

  test('when the same message id is kept twice, then the first is kept once', async () => {
    const before = await repo.deadLetters.count();
    await repo.deadLetters.keep({ ...letter(1002), reason: 'second' });

    expect(await repo.deadLetters.count()).toBe(before);
    expect((await repo.deadLetters.get(letter(1002)._id))?.reason).toBe('unknown-type: channel.hype_train.started');
  });

  test('when dead letters are older than 7 days, then they are gone', async () => {
    // kept at 18:00, it is 18:05 now
    clock.advance(7 * 24 * 60 * 60 * 1000 - 6 * 60_000);
    expect(await repo.deadLetters.count()).toBe(1000);

    clock.advance(2 * 60_000);

    expect(await repo.deadLetters.count()).toBe(0);
  });
});

describe('send claims', () => {
  const reply = {
    broadcasterUserId: '4377088',
    ownerUserId: 'u-streamer',
    content: 'hello',
    origin: 1,
    sourceReceivedAt: null,
    occurredAt: null,
  };

  test("when a queued claim's document cannot be stored, then its key is let go, so that a redelivery is taken", async () => {
    let isDiskFull = true;
    const failing: Store = {
      ...platform.store,
      collection: <T extends Document>(name: string) => {
        const collection = platform.store.collection<T>(name);
        if (name !== 'chat-send-claims') return collection;
        return {
          ...collection,
          insertOne: (doc: NewDocument<T>) =>
            isDiskFull ? Promise.reject(new Error('disk full')) : collection.insertOne(doc),
        };
      },
    };
    const claims = createKickLinkRepository(failing, { oauthStateSeconds: 600 }).sendClaims;

    await expect(claims.claim('reply:disk-full', clock.now(), reply)).rejects.toThrow('disk full');
    expect(await claims.get('reply:disk-full')).toBeNull();
    isDiskFull = false;

    expect(await claims.claim('reply:disk-full', clock.now(), reply)).toBe(true);
    expect(await claims.get('reply:disk-full')).toMatchObject({ state: 'queued', reply });
    expect(await claims.claim('reply:disk-full', clock.now(), reply, 'posting')).toBe(false);
  });

  test('when a key is claimed for posting, then a queued claim of it is refused without a document', async () => {
    expect(await repo.sendClaims.claim('reply:posting-first', clock.now(), reply, 'posting')).toBe(true);

    expect(await repo.sendClaims.claim('reply:posting-first', clock.now(), reply)).toBe(false);
    expect(await platform.store.collection('chat-send-claims').count({ _id: 'reply:posting-first' })).toBe(0);
    expect(await repo.sendClaims.startPosting('reply:posting-first', clock.now())).toBe(false);
  });
});
