import { randomBytes, randomUUID } from 'node:crypto';
import { createFakeClock, createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { createBotAccountDirectory } from './bot-account';
import { KickAccountChangeKind } from '@kickstand/proto';
import type { KickLinkPublisher } from './publisher';
import { KickUnreachableError, type KickClient } from './kick-client';
import { sealTokens } from './kick-tokens';
import { createChannelOwners, createLinks, dashboardLocation, decideLink, missingScopes, statusOf } from './links';
import { createKickLinkRepository, type KickLinkRepository, type LinkDoc } from './repository';
import type { ChannelSubscriptions } from './subscriptions';
import { createTokenCipher } from './token-crypto';

const aLinkDoc = (overrides: Partial<LinkDoc> = {}): LinkDoc => ({
  _id: 'u1',
  kickUserId: '4377088',
  kickUsername: 'some_streamer',
  kickEmail: 'owner@example.com',
  profilePicture: 'https://files.kick.com/a.webp',
  linkedAt: new Date('2026-03-02T18:00:00Z'),
  accessToken: 'sealed',
  refreshToken: 'sealed',
  accessExpiresAt: new Date('2026-03-02T20:00:00Z'),
  scopes: ['chat:write'],
  status: 'active',
  version: 1,
  tokensUpdatedAt: new Date('2026-03-02T18:00:00Z'),
  ...overrides,
});

describe('link rules', () => {
  test('when the Kick account is held by another user, then it is a duplicate', () => {
    expect(decideLink('u2', aLinkDoc({ _id: 'u1' }), null)).toEqual({ kind: 'duplicate' });
    expect(decideLink('u2', aLinkDoc({ _id: 'u1' }), aLinkDoc({ _id: 'u2', kickUserId: '9' }))).toEqual({
      kind: 'duplicate',
    });
  });

  test('when the user links the account they already have, then it is a relink', () => {
    const own = aLinkDoc();
    expect(decideLink('u1', own, own)).toEqual({ kind: 'relink', current: own });
  });

  test('when the user had another account, then that one is replaced', () => {
    const previous = aLinkDoc({ kickUserId: '1' });
    expect(decideLink('u1', null, previous)).toEqual({ kind: 'replace', previous });
  });

  test('when nothing is linked on either side, then it is new', () => {
    expect(decideLink('u1', null, null)).toEqual({ kind: 'new' });
  });

  test("when the outcome is known, then the dashboard redirect is the spec's", () => {
    expect(dashboardLocation({ kind: 'linked' })).toBe('/dashboard?kick_linked=true');
    expect(dashboardLocation({ kind: 'failed' })).toBe('/dashboard?kick_error=general');
    expect(dashboardLocation({ kind: 'denied' })).toBe('/dashboard?kick_error=denied');
    expect(dashboardLocation({ kind: 'duplicate', kickUsername: 'some_streamer' })).toBe(
      '/dashboard?kick_error=duplicate&username=some_streamer',
    );
  });

  test('when chat:write was not granted, then it is missing; no scope list at all counts as granted', () => {
    expect(missingScopes(['user:read', 'channel:read'])).toEqual(['chat:write']);
    expect(missingScopes(['user:read', 'chat:write'])).toEqual([]);
    expect(missingScopes([])).toEqual([]);
  });

  test('when a link exists, then the status shows it with an ISO link date', () => {
    expect(statusOf(aLinkDoc())).toEqual({
      hasKickAccount: true,
      kickAccount: {
        kickUsername: 'some_streamer',
        kickEmail: 'owner@example.com',
        profilePicture: 'https://files.kick.com/a.webp',
        linkedAt: '2026-03-02T18:00:00.000Z',
      },
      needsRelink: false,
    });
    expect(statusOf(aLinkDoc({ status: 'needs-relink' })).needsRelink).toBe(true);
    expect(statusOf(null)).toEqual({ hasKickAccount: false, kickAccount: null, needsRelink: false });
  });
});

describe('unlink when Kick fails', () => {
  let platform: TestPlatform;
  let repo: KickLinkRepository;

  beforeAll(async () => {
    platform = await createTestPlatform('kick-link');
    repo = createKickLinkRepository(platform.store, { oauthStateSeconds: 600 });
    await repo.createIndexes();
  });

  afterAll(async () => {
    await platform.close();
  });

  test('when revoking and removing subscriptions both fail at Kick, then the link still goes and UNLINKED is published', async () => {
    const cipher = createTokenCipher(randomBytes(32));
    const userId = `u-${randomUUID()}`;
    await repo.links.save(userId, {
      kickUserId: '123456',
      kickUsername: 'streamer',
      kickEmail: '',
      profilePicture: '',
      linkedAt: new Date(),
      ...sealTokens(
        cipher,
        userId,
        { accessToken: 'a', refreshToken: 'r', expiresInSeconds: 7200, scopes: [] },
        new Date(),
      ),
    });
    const revoked: string[] = [];
    const kick = {
      revoke: async (token: string) => {
        revoked.push(token);
        throw new KickUnreachableError('Kick is down');
      },
    } as unknown as KickClient;
    const subscriptions = {
      remove: async () => {
        throw new KickUnreachableError('Kick is down');
      },
    } as unknown as ChannelSubscriptions;
    const published: string[] = [];
    const publisher = {
      kickAccount: async (kind: KickAccountChangeKind) => {
        published.push(`kick.account:${KickAccountChangeKind[kind]}`);
      },
      chatSubscription: async () => {
        published.push('chat.subscription');
      },
    } as unknown as KickLinkPublisher;
    const owners = createChannelOwners({ repo, clock: platform.clock });
    await owners.warm();
    expect(await owners.ownerOf('123456')).toBe(userId);
    const links = createLinks({
      repo,
      kick,
      cipher: () => cipher,
      subscriptions,
      owners,
      publisher,
      outbox: { publishFrom: async () => true },
      clock: platform.clock,
      log: platform.log,
      oauthStateSeconds: 600,
      botAccounts: createBotAccountDirectory({ repo, clock: platform.clock }),
    });

    await links.unlink(userId);

    expect(revoked).toEqual(['a', 'r']);
    expect(await repo.links.byUser(userId)).toBeNull();
    expect(published).toEqual(['kick.account:UNLINKED', 'chat.subscription']);
    expect(await owners.ownerOf('123456')).toBeNull();
  });
});

describe('channel owners', () => {
  function ownersOver(owners: Map<string, string>, maxChannels?: number) {
    const reads: string[] = [];
    const repo = {
      links: {
        byKickUser: async (kickUserId: string) => {
          reads.push(kickUserId);
          const owner = owners.get(kickUserId);
          return owner === undefined ? null : aLinkDoc({ _id: owner, kickUserId });
        },
      },
    } as unknown as KickLinkRepository;
    const clock = createFakeClock();
    return { reads, clock, cache: createChannelOwners({ repo, clock, maxChannels }) };
  }

  test('when a known owner is asked again, then the store is read again only after 5 minutes', async () => {
    const store = new Map([['4377088', 'u1']]);
    const { reads, clock, cache } = ownersOver(store);
    expect(await cache.ownerOf('4377088')).toBe('u1');
    store.set('4377088', 'u2'); // relinked by another instance
    clock.advance(5 * 60_000 - 1);
    expect(await cache.ownerOf('4377088')).toBe('u1');
    clock.advance(1);
    expect(await cache.ownerOf('4377088')).toBe('u2');
    expect(reads).toEqual(['4377088', '4377088']);
  });

  test('when an unknown channel is asked again, then the store is read again only after 30 seconds', async () => {
    const store = new Map<string, string>();
    const { reads, clock, cache } = ownersOver(store);
    expect(await cache.ownerOf('999')).toBeNull();
    store.set('999', 'u3');
    clock.advance(29_999);
    expect(await cache.ownerOf('999')).toBeNull();
    clock.advance(1);
    expect(await cache.ownerOf('999')).toBe('u3');
    expect(reads).toEqual(['999', '999']);
  });

  test('when more channels are asked than are kept, then the least recently asked is read from the store again', async () => {
    const { reads, cache } = ownersOver(
      new Map([
        ['1', 'u1'],
        ['2', 'u2'],
        ['3', 'u3'],
      ]),
      2,
    );
    expect(await cache.ownerOf('1')).toBe('u1');
    expect(await cache.ownerOf('2')).toBe('u2');
    expect(await cache.ownerOf('1')).toBe('u1'); // now 2 is the least recently asked
    expect(await cache.ownerOf('3')).toBe('u3');
    expect(await cache.ownerOf('1')).toBe('u1');
    expect(await cache.ownerOf('2')).toBe('u2');
    expect(reads).toEqual(['1', '2', '3', '2']);
  });
});
