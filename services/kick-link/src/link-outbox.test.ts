import { randomBytes, randomUUID } from 'node:crypto';
import { kickstandTopics, type KickstandBus } from '@kickstand/platform/bus';
import { createFakeClock, createTestPlatform, recordPublished, type TestPlatform } from '@kickstand/platform/testing';
import { ChatSubscriptionState, KickAccountChangeKind } from '@kickstand/proto';
import { needsRelinkMessages, sealTokens } from './kick-tokens';
import { createLinkOutbox } from './link-outbox';
import { createKickLinkPublisher } from './publisher';
import { createKickLinkRepository, type KickLinkRepository } from './repository';
import { createTokenCipher } from './token-crypto';

const clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
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

/** The recorded bus, refusing everything while `isDown`. */
function aBus() {
  const recorded = recordPublished(platform.bus, kickstandTopics);
  const state = { isDown: true };
  const bus: KickstandBus = {
    ...recorded.bus,
    publish: (topic, key, message) =>
      state.isDown ? Promise.reject(new Error('the bus is down')) : recorded.bus.publish(topic, key, message),
  };
  return { recorded, bus, state };
}

const cipher = createTokenCipher(randomBytes(32));
const tokens = { accessToken: 'a', refreshToken: 'r', expiresInSeconds: 7200, scopes: ['chat:write'] };
const aLinkOf = (userId: string, kickUserId: string) => ({
  kickUserId,
  kickUsername: 'streamer',
  kickEmail: '',
  profilePicture: '',
  linkedAt: clock.now(),
  ...sealTokens(cipher, userId, tokens, clock.now()),
});

describe('the links outbox', () => {
  test('when the bus is down as a link is saved, then LINKED waits in the link and goes out once, with its own id', async () => {
    const { recorded, bus, state } = aBus();
    const outbox = createLinkOutbox({ repo, publisher: createKickLinkPublisher(bus, clock), log: platform.log });
    const userId = `u-${randomUUID()}`;
    const link = await repo.links.save(userId, aLinkOf(userId, '1001'), [
      { id: 'linked-1', occurredAt: clock.now(), topic: 'kick.account', kind: 'LINKED' },
    ]);

    expect(await outbox.publishFrom(link)).toBe(false);
    state.isDown = false;
    await outbox.flushAll();
    await outbox.flushAll();

    expect(recorded.published('kick.account').map((m) => [m.eventId, m.userId, m.kind, m.kickUserId])).toEqual([
      ['linked-1', userId, KickAccountChangeKind.LINKED, '1001'],
    ]);
    expect((await repo.links.byUser(userId))?.outbox).toEqual([]);
  });

  test('when a link needs a new authorization, then NEEDS_RELINK and chat.subscription FAILED go out from its outbox', async () => {
    const { recorded, bus, state } = aBus();
    state.isDown = false;
    const outbox = createLinkOutbox({ repo, publisher: createKickLinkPublisher(bus, clock), log: platform.log });
    const userId = `u-${randomUUID()}`;
    const saved = await repo.links.save(userId, aLinkOf(userId, '1002'));

    const marked = await repo.links.markNeedsRelink(userId, saved.version, needsRelinkMessages(clock.now()));
    await outbox.flush(userId);

    expect(marked?.status).toBe('needs-relink');
    expect(recorded.published('kick.account').map((m) => [m.userId, m.kind])).toEqual([
      [userId, KickAccountChangeKind.NEEDS_RELINK],
    ]);
    expect(
      recorded.published('chat.subscription').map((m) => [m.userId, m.broadcasterUserId, m.state, m.error]),
    ).toEqual([[userId, '1002', ChatSubscriptionState.FAILED, 'Your Kick account needs to be linked again']]);
  });
});
