import { randomBytes, randomUUID } from 'node:crypto';
import { createFakeClock, createTestPlatform, type FakeClock, type TestPlatform } from '@kickstand/platform/testing';
import { KickApiError, type KickClient, type KickUserTokens } from './kick-client';
import {
  createAppTokens,
  createUserTokens,
  NeedsRelinkError,
  NotLinkedError,
  openTokens,
  sealTokens,
} from './kick-tokens';
import { createKickLinkRepository, type KickLinkRepository, type LinkDoc } from './repository';
import { createTokenCipher } from './token-crypto';

let platform: TestPlatform;
let clock: FakeClock;
let repo: KickLinkRepository;
const cipher = createTokenCipher(randomBytes(32));

beforeAll(async () => {
  clock = createFakeClock(new Date('2026-03-02T18:00:00Z'));
  platform = await createTestPlatform('kick-link', { clock });
  repo = createKickLinkRepository(platform.store, { oauthStateSeconds: 600 });
  await repo.createIndexes();
});

afterAll(async () => {
  await platform.close();
});

const issued = (n: number, expiresInSeconds = 7200): KickUserTokens => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  expiresInSeconds,
  scopes: ['chat:write'],
});

async function aLink(expiresInSeconds = 7200): Promise<LinkDoc> {
  const userId = `u-${randomUUID()}`;
  return repo.links.save(userId, {
    kickUserId: String(Math.floor(Math.random() * 1e9)),
    kickUsername: 'someone',
    kickEmail: '',
    profilePicture: '',
    linkedAt: clock.now(),
    ...sealTokens(cipher, userId, issued(0, expiresInSeconds), clock.now()),
  });
}

function fakeKick(refresh: (token: string) => Promise<KickUserTokens>) {
  const calls: string[] = [];
  const kick = {
    refresh: async (token: string) => {
      calls.push(token);
      return refresh(token);
    },
  } as unknown as KickClient;
  return { kick, calls };
}

function userTokensWith(kick: KickClient, onNeedsRelink = jest.fn(async () => undefined)) {
  return {
    tokens: createUserTokens({
      repo,
      kick,
      cipher: () => cipher,
      clock,
      log: platform.log,
      refreshAheadSeconds: 300,
      onNeedsRelink,
    }),
    onNeedsRelink,
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('user tokens', () => {
  test('when the token has more than 5 minutes left, then it is used as it is', async () => {
    const link = await aLink();
    const { kick, calls } = fakeKick(async () => issued(1));
    const { tokens } = userTokensWith(kick);

    const used = await tokens.withUserToken(link._id, async (token) => token);

    expect(used).toBe('access-0');
    expect(calls).toEqual([]);
  });

  test('when a token is used for several calls, then it is decrypted once, and a refreshed one once more', async () => {
    const link = await aLink();
    const { kick } = fakeKick(async () => issued(4));
    const decrypt = jest.spyOn(cipher, 'decrypt');
    const { tokens } = userTokensWith(kick);
    const seen: string[] = [];
    const use = () =>
      tokens.withUserToken(link._id, async (token) => {
        seen.push(token);
        if (token === 'access-0' && seen.length === 3) throw new KickApiError(401, 'Unauthorized');
        return token;
      });

    await use();
    await use();
    const openedBeforeRefresh = decrypt.mock.calls.map(([, context]) => context);
    await use();
    await use();

    expect(openedBeforeRefresh).toEqual([`${link._id}:access`]);
    expect(seen).toEqual(['access-0', 'access-0', 'access-0', 'access-4', 'access-4']);
    // the refresh: the stored (still old) access token compared from memory, the refresh token opened, the new seal opened once
    expect(decrypt.mock.calls.map(([, context]) => context)).toEqual([
      `${link._id}:access`,
      `${link._id}:refresh`,
      `${link._id}:access`,
    ]);
    decrypt.mockRestore();
  });

  test('when a stored seal is altered, then the call fails even though an earlier seal of the link was opened', async () => {
    const link = await aLink();
    const { kick } = fakeKick(async () => issued(1));
    const { tokens } = userTokensWith(kick);
    await tokens.withUserToken(link._id, async (token) => token, link);
    const [version, iv, tag, ciphertext] = link.accessToken.split('.');
    const first = ciphertext?.startsWith('A') ? 'B' : 'A';
    const altered = { ...link, accessToken: [version, iv, tag, `${first}${ciphertext?.slice(1) ?? ''}`].join('.') };

    await expect(tokens.withUserToken(link._id, async (token) => token, altered)).rejects.toThrow(/decrypted/);
  });

  test('when the caller hands the link it has just read, then its token is used without reading the store again', async () => {
    const link = await aLink();
    const { kick } = fakeKick(async () => issued(1));
    const { tokens } = userTokensWith(kick);
    const reads = jest.spyOn(repo.links, 'byUser');

    const used = await tokens.withUserToken(link._id, async (token, usedLink) => [token, usedLink._id], link);

    expect(used).toEqual(['access-0', link._id]);
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
  });

  test('when five calls need a refresh at once, then Kick is asked once and every call gets the new token', async () => {
    const link = await aLink(200);
    const { kick, calls } = fakeKick(async () => {
      await tick();
      return issued(1);
    });
    const { tokens } = userTokensWith(kick);

    const used = await Promise.all(
      Array.from({ length: 5 }, () => tokens.withUserToken(link._id, async (token) => token)),
    );

    expect(calls).toEqual(['refresh-0']);
    expect(used).toEqual(Array.from({ length: 5 }, () => 'access-1'));
    const stored = await repo.links.byUser(link._id);
    expect(openTokens(cipher, stored as LinkDoc)).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(stored?.version).toBe(link.version + 1);
    expect(stored?.accessExpiresAt.getTime()).toBe(clock.now().getTime() + 7200 * 1000);
  });

  test('when another process stored newer tokens during our refresh, then theirs win (version guard)', async () => {
    const link = await aLink(200);
    const { kick } = fakeKick(async () => {
      // another kick-link instance finishes its refresh first
      await repo.links.saveTokens(link._id, link.version, sealTokens(cipher, link._id, issued(7), clock.now()));
      return issued(1);
    });
    const { tokens } = userTokensWith(kick);

    const used = await tokens.withUserToken(link._id, async (token) => token);

    expect(used).toBe('access-7');
    expect(openTokens(cipher, (await repo.links.byUser(link._id)) as LinkDoc).refreshToken).toBe('refresh-7');
  });

  test('when Kick answers 401, then the token is refreshed once and the call runs again with the new one', async () => {
    const link = await aLink();
    const { kick, calls } = fakeKick(async () => issued(2));
    const { tokens } = userTokensWith(kick);
    const seen: string[] = [];

    const result = await tokens.withUserToken(link._id, async (token) => {
      seen.push(token);
      if (token === 'access-0') throw new KickApiError(401, 'Unauthorized');
      return 'done';
    });

    expect(result).toBe('done');
    expect(seen).toEqual(['access-0', 'access-2']);
    expect(calls).toHaveLength(1);
  });

  test("when Kick answers 401 twice, then the second 401 is the caller's (no endless refreshing)", async () => {
    const link = await aLink();
    const { kick, calls } = fakeKick(async () => issued(3));
    const { tokens } = userTokensWith(kick);

    const call = tokens.withUserToken(link._id, async () => {
      throw new KickApiError(401, 'Unauthorized');
    });

    await expect(call).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
  });

  test('when Kick refuses the refresh token (invalid_grant), then the link needs a relink, the hook runs once, and later calls fail fast', async () => {
    const link = await aLink(100);
    const { kick, calls } = fakeKick(async () => {
      throw new KickApiError(400, 'The refresh token is invalid.', 'invalid_grant');
    });
    const { tokens, onNeedsRelink } = userTokensWith(kick);

    const results = await Promise.allSettled([
      tokens.withUserToken(link._id, async () => 'x'),
      tokens.withUserToken(link._id, async () => 'y'),
    ]);

    expect(results.every((result) => result.status === 'rejected' && result.reason instanceof NeedsRelinkError)).toBe(
      true,
    );
    expect(calls).toHaveLength(1);
    expect(onNeedsRelink).toHaveBeenCalledTimes(1);
    expect((await repo.links.byUser(link._id))?.status).toBe('needs-relink');
    await expect(tokens.withUserToken(link._id, async () => 'z')).rejects.toBeInstanceOf(NeedsRelinkError);
    expect(calls).toHaveLength(1);
  });

  test('when Kick fails with a 5xx during the refresh, then the error is passed on and the link stays usable', async () => {
    const link = await aLink(100);
    const { kick } = fakeKick(async () => {
      throw new KickApiError(503, 'Service unavailable');
    });
    const { tokens, onNeedsRelink } = userTokensWith(kick);

    await expect(tokens.withUserToken(link._id, async () => 'x')).rejects.toMatchObject({ status: 503 });
    expect(onNeedsRelink).not.toHaveBeenCalled();
    expect((await repo.links.byUser(link._id))?.status).toBe('active');
  });

  test('when there is no link, then NotLinkedError', async () => {
    const { kick } = fakeKick(async () => issued(1));
    const { tokens } = userTokensWith(kick);
    await expect(tokens.withUserToken('nobody', async () => 'x')).rejects.toBeInstanceOf(NotLinkedError);
  });
});

describe('app token', () => {
  test('when used many times, then one client-credentials token is fetched, and a 401 fetches a new one once', async () => {
    let issuedCount = 0;
    const kick = {
      appToken: async () => {
        issuedCount += 1;
        return { accessToken: `app-${issuedCount}`, expiresInSeconds: 5_184_000 };
      },
    } as unknown as KickClient;
    const appTokens = createAppTokens({ kick, clock });

    const first = await Promise.all([1, 2, 3].map(() => appTokens.withAppToken(async (token) => token)));
    const afterRefusal = await appTokens.withAppToken(async (token) => {
      if (token === 'app-1') throw new KickApiError(401, 'Unauthorized');
      return token;
    });
    clock.advance(5_184_000 * 1000);
    const afterExpiry = await appTokens.withAppToken(async (token) => token);

    expect(first).toEqual(['app-1', 'app-1', 'app-1']);
    expect(afterRefusal).toBe('app-2');
    expect(afterExpiry).toBe('app-3');
  });
});
