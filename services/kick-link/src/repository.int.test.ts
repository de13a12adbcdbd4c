import { randomUUID } from 'node:crypto';
import { createMongoStore, type Store } from '@kickstand/platform/store';
import { createFakeClock } from '@kickstand/platform/testing';
import { createKickLinkRepository, type SendClaimDoc, type StoredReply } from './repository';

/**
 * kick-link's send claims on a real engine (MongoDB or SecantusDB at MONGO_URL, e.g.
 * `bash scripts/with-engines.sh npx jest services/kick-link/src/repository.int.test.ts`): the
 * upgrade from an earlier version, which kept a document per chat.send under a 2-day TTL index.
 * Skipped with one line without MONGO_URL, unless CI requires it.
 *
 * The fake clock starts at the wall clock's time: the engine's own TTL monitor (wall clock) must
 * not delete what the test still reads.
 */
const url = process.env.MONGO_URL ?? '';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';
const twoDaysSeconds = 2 * 24 * 3600;

if (!url && isRequired) {
  test('when CI requires integration suites, then MONGO_URL must be set', () => {
    throw new Error('CI=true and REQUIRE_INTEGRATION=1, but MONGO_URL is not set');
  });
} else {
  if (!url)
    process.stdout.write('kick-link send claims on a real engine skipped: set MONGO_URL (scripts/with-engines.sh)\n');
  const describeWithMongo = url ? describe : describe.skip;

  describeWithMongo('send claims on a real store, after an earlier version', () => {
    const clock = createFakeClock(new Date());
    const stores: Store[] = [];
    const dbName = `kickstand-kick-link-${randomUUID().slice(0, 8)}`;
    const openStore = async () => {
      const store = await createMongoStore({ url, dbName, clock });
      stores.push(store);
      return store;
    };
    const reply: StoredReply = {
      broadcasterUserId: '4377088',
      ownerUserId: 'u-1',
      content: 'hello',
      origin: 1,
      sourceReceivedAt: null,
      occurredAt: null,
    };
    const ago = (ms: number) => new Date(clock.now().getTime() - ms);

    afterAll(async () => {
      const [first] = stores;
      for (const name of ['chat-send-claims', 'chat-send-keys']) await first?.collection(name).deleteMany({});
      for (const store of stores) await store.close();
    });

    test('when the earlier version left its 2-day index and documents, then kick-link starts, the last 10 minutes still stop copies and older keys are free', async () => {
      // the earlier version: its index and a document per chat.send
      const earlier = await openStore();
      const claims = earlier.collection<SendClaimDoc>('chat-send-claims');
      await claims.createIndex({ fields: { claimedAt: 1 }, expireAfterSeconds: twoDaysSeconds });
      const posted = (key: string, at: Date): SendClaimDoc => ({
        _id: key,
        claimedAt: at,
        outcome: null,
        isPublished: false,
        state: 'posting',
        postingAt: at,
      });
      await claims.insertOne(posted('reply:a-minute-ago', ago(60_000)));
      await claims.insertOne(posted('reply:an-hour-ago', ago(3_600_000)));

      // this version starts on the same database (another instance, another connection)
      const repo = createKickLinkRepository(await openStore(), { oauthStateSeconds: 600 });
      await repo.createIndexes();

      expect(await repo.sendClaims.claim('reply:a-minute-ago', clock.now(), reply, 'posting')).toBe(false);
      expect(await repo.sendClaims.claim('reply:an-hour-ago', clock.now(), reply, 'posting')).toBe(true);
      expect(await repo.sendClaims.claim('reply:new', clock.now(), reply, 'posting')).toBe(true);
      expect(await repo.sendClaims.claim('reply:new', clock.now(), reply, 'posting')).toBe(false);

      // a second start (the index already has the new expiry) changes nothing
      const again = createKickLinkRepository(await openStore(), { oauthStateSeconds: 600 });
      await again.createIndexes();
      expect(await again.sendClaims.claim('reply:a-minute-ago', clock.now(), reply, 'posting')).toBe(false);
      expect(await again.sendClaims.claim('reply:new', clock.now(), reply, 'posting')).toBe(false);
    });
  });
}
