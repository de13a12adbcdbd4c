import { randomUUID } from 'node:crypto';
import { eventually } from '@kickstand/platform/testing';
import { ChatSubscriptionState, KickAccountChangeKind } from '@kickstand/proto';
import { dashboardLocation } from './links';
import type { LinkDoc } from './repository';
import { aKickName, startStack, testApp, type Stack } from './testing/test-harness';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack.close();
});

const aUser = () => `u-${randomUUID()}`;

const accountEventsOf = (userId: string) =>
  stack.recorded.publishedWithKeys('kick.account').filter(({ message }) => message.userId === userId);

interface StatusBody {
  success: boolean;
  data: {
    hasKickAccount: boolean;
    kickAccount: { kickUsername: string; kickEmail: string; profilePicture: string; linkedAt: string } | null;
    needsRelink: boolean;
  };
}

const statusOf = (userId: string) =>
  stack.api<StatusBody>('GET', '/api/platform/kick/status', { token: stack.tokenFor(userId) });

describe('POST /api/platform/kick/link', () => {
  test('when a signed-in user starts linking, then an OAuth 2.1 authorize URL with PKCE S256, the scopes and a state is answered', async () => {
    const answer = await stack.api<{ success: boolean; data: { authUrl: string } }>('POST', '/api/platform/kick/link', {
      token: stack.tokenFor(aUser()),
    });

    expect(answer.status).toBe(200);
    expect(answer.json.success).toBe(true);
    const url = new URL(answer.json.data.authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.sandboxUrl}/oauth/authorize`);
    const params = url.searchParams;
    expect(params.get('client_id')).toBe(testApp.clientId);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('redirect_uri')).toBe(testApp.redirectUri);
    // exactly the scopes of the calls made with the streamer's token (links.ts linkScopes)
    expect(params.get('scope')).toBe('user:read chat:write');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('when a user starts linking, then the browser gets an HttpOnly SameSite=Lax cookie for the callback path only, for as long as the state lives', async () => {
    const answer = await stack.api('POST', '/api/platform/kick/link', { token: stack.tokenFor(aUser()) });

    const [setCookie, ...others] = answer.headers.getSetCookie();
    expect(others).toEqual([]);
    // Expires is computed by Express from the wall clock: only its presence is checked
    const attributes = (setCookie ?? '').split('; ');
    expect(attributes.filter((attribute) => !attribute.startsWith('Expires='))).toEqual([
      expect.stringMatching(/^kickstand_oauth=[A-Za-z0-9_-]{43}$/),
      'Max-Age=600',
      'Path=/api/kick/oauth/callback',
      'HttpOnly',
      'SameSite=Lax',
    ]);
    // the redirect URI is plain http here: a Secure cookie would never come back
    expect(attributes).toContainEqual(expect.stringMatching(/^Expires=/));
  });

  test('when nobody is signed in, then 401', async () => {
    const answer = await stack.api('POST', '/api/platform/kick/link');
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({ success: false, error: 'Authentication required' });
  });
});

describe('GET /api/kick/oauth/callback', () => {
  test('when the streamer approves, then the browser goes to /dashboard?kick_linked=true, the status shows the account and LINKED is published', async () => {
    const userId = aUser();
    const kickName = aKickName();

    const result = await stack.link(userId, kickName);

    expect(result.status).toBe(302);
    expect(result.location).toBe('/dashboard?kick_linked=true');
    const kickUserId = await stack.kickUserId(kickName);
    const status = await statusOf(userId);
    expect(status.status).toBe(200);
    expect(status.json).toEqual({
      success: true,
      data: {
        hasKickAccount: true,
        kickAccount: {
          kickUsername: kickName,
          kickEmail: expect.any(String),
          profilePicture: expect.stringContaining(String(kickUserId)),
          linkedAt: expect.any(String),
        },
        needsRelink: false,
      },
    });
    const events = accountEventsOf(userId);
    expect(events).toHaveLength(1);
    expect(events[0]?.key).toBe(userId);
    expect(events[0]?.message).toMatchObject({
      kind: KickAccountChangeKind.LINKED,
      userId,
      kickUserId: String(kickUserId),
      kickUsername: kickName,
    });
    expect(events[0]?.message.eventId).not.toBe('');
    expect(events[0]?.message.linkedAt).toBeDefined();
  });

  test('when linked, then the Kick tokens are stored encrypted (AES-256-GCM), never as Kick issued them', async () => {
    const userId = aUser();
    await stack.link(userId, aKickName());

    const doc = await stack.store.collection<LinkDoc>('kick-links').findOne({ _id: userId });

    expect(doc?.accessToken).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(doc?.refreshToken).toMatch(/^v1\./);
    expect(doc?.accessToken).not.toBe(doc?.refreshToken);
  });

  test('when another Kickstand user links a Kick account that is already linked, then kick_error=duplicate with the Kick name', async () => {
    const kickName = aKickName('Dup');
    const first = aUser();
    await stack.link(first, kickName);
    const second = aUser();

    const result = await stack.link(second, kickName);

    expect(result.status).toBe(302);
    expect(result.location).toBe(`/dashboard?kick_error=duplicate&username=${encodeURIComponent(kickName)}`);
    expect((await statusOf(second)).json.data.hasKickAccount).toBe(false);
    expect(accountEventsOf(second)).toHaveLength(0);
    // the first user's link is untouched
    expect((await statusOf(first)).json.data.kickAccount?.kickUsername).toBe(kickName);
  });

  test('when the username needs encoding, then the duplicate redirect encodes it', () => {
    expect(dashboardLocation({ kind: 'duplicate', kickUsername: 'a b&c' })).toBe(
      '/dashboard?kick_error=duplicate&username=a%20b%26c',
    );
  });

  test('when the streamer denies consent, then kick_error=denied and nothing is linked', async () => {
    const userId = aUser();

    const query = await stack.authorize(userId, { sandbox_auto_deny: '1' });
    const result = await stack.callback(query);

    expect(query).toContain('error=access_denied');
    expect(result.status).toBe(302);
    expect(result.location).toBe('/dashboard?kick_error=denied');
    expect((await statusOf(userId)).json.data.hasKickAccount).toBe(false);
  });

  test('when the same callback is replayed, then the state is spent and the replay fails with kick_error=general', async () => {
    const userId = aUser();
    const first = await stack.link(userId, aKickName());
    expect(first.location).toBe('/dashboard?kick_linked=true');

    const replay = await stack.callback(first.callbackQuery);

    expect(replay.status).toBe(302);
    expect(replay.location).toBe('/dashboard?kick_error=general');
    expect(accountEventsOf(userId)).toHaveLength(1);
  });

  test('when the state is older than 10 minutes, then kick_error=general', async () => {
    const userId = aUser();
    const query = await stack.authorize(userId, { sandbox_auto_approve: aKickName() });

    stack.clock.advance(10 * 60 * 1000 + 1000);
    const result = await stack.callback(query);

    expect(result.location).toBe('/dashboard?kick_error=general');
    expect((await statusOf(userId)).json.data.hasKickAccount).toBe(false);
  });

  test('when the state is unknown, then kick_error=general', async () => {
    const query = await stack.authorize(aUser(), { sandbox_auto_approve: aKickName() });
    const forged = query.replace(/state=[^&]+/, 'state=not-a-state-we-issued');

    expect((await stack.callback(forged)).location).toBe('/dashboard?kick_error=general');
  });

  test.each([
    ['no parameters', ''],
    ['no code', '?state=abc'],
    ['no state', '?code=abc'],
    ['a parameter given twice', '?code=a&code=b&state=c'],
    ['an error without a state', '?error=server_error'],
  ])('when the callback has %s, then kick_error=general, never JSON', async (_name, query) => {
    const result = await stack.callback(query);
    expect(result.status).toBe(302);
    expect(result.location).toBe('/dashboard?kick_error=general');
  });

  test('when the streamer grants fewer scopes than chat needs, then kick_error=general and the tokens are revoked', async () => {
    const userId = aUser();
    const kickName = aKickName();

    const result = await stack.link(userId, kickName, { sandbox_scope: 'user:read' });

    expect(result.location).toBe('/dashboard?kick_error=general');
    const kickUserId = await stack.kickUserId(kickName);
    const tokens = await stack.control<{ isActive: boolean }[]>('GET', `/tokens?userId=${kickUserId}`);
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((token) => !token.isActive)).toBe(true);
  });

  test('when the same user links the same Kick account again, then the tokens are replaced, the link date is kept and LINKED is published again', async () => {
    const userId = aUser();
    const kickName = aKickName();
    await stack.link(userId, kickName);
    const before = await stack.store.collection<LinkDoc>('kick-links').findOne({ _id: userId });
    stack.clock.advance(60_000);

    const again = await stack.link(userId, kickName);

    expect(again.location).toBe('/dashboard?kick_linked=true');
    const after = await stack.store.collection<LinkDoc>('kick-links').findOne({ _id: userId });
    expect(after?.accessToken).not.toBe(before?.accessToken);
    expect(after?.linkedAt).toEqual(before?.linkedAt);
    expect(accountEventsOf(userId).map(({ message }) => message.kind)).toEqual([
      KickAccountChangeKind.LINKED,
      KickAccountChangeKind.LINKED,
    ]);
  });

  test('when a user links a different Kick account, then the previous one is unlinked first', async () => {
    const userId = aUser();
    const firstName = aKickName();
    const secondName = aKickName();
    await stack.link(userId, firstName);

    const result = await stack.link(userId, secondName);

    expect(result.location).toBe('/dashboard?kick_linked=true');
    expect((await statusOf(userId)).json.data.kickAccount?.kickUsername).toBe(secondName);
    expect(accountEventsOf(userId).map(({ message }) => [message.kind, message.kickUsername])).toEqual([
      [KickAccountChangeKind.LINKED, firstName],
      [KickAccountChangeKind.UNLINKED, firstName],
      [KickAccountChangeKind.LINKED, secondName],
    ]);
    // the first account can now be linked by someone else
    expect((await stack.link(aUser(), firstName)).location).toBe('/dashboard?kick_linked=true');
  });
});

describe('the link is bound to the browser that started it (link CSRF)', () => {
  /**
   * The attack: user A starts a link and sends the authorize URL to a victim, who approves with
   * their own Kick account; the victim's browser lands on the callback with A's state.
   */
  async function victimApproves(attacker: string, victimKickName: string): Promise<string> {
    return stack.authorize(attacker, { sandbox_auto_approve: victimKickName });
  }

  const savedLinkOf = async (kickName: string) =>
    stack.store.collection<LinkDoc>('kick-links').findOne({ kickUserId: String(await stack.kickUserId(kickName)) });

  test('when the callback comes without the starting browser cookie, then kick_error=general, no link is saved, no kick.account event and the code is never exchanged', async () => {
    const attacker = aUser();
    const victimKickName = aKickName('victim');
    const query = await victimApproves(attacker, victimKickName);

    const result = await stack.callback(query, null);

    expect(result.status).toBe(302);
    expect(result.location).toBe('/dashboard?kick_error=general');
    expect(result.setCookies).toEqual([]);
    expect((await statusOf(attacker)).json.data.hasKickAccount).toBe(false);
    expect(await savedLinkOf(victimKickName)).toBeNull();
    expect(accountEventsOf(attacker)).toEqual([]);
    // Kick issued no tokens for the victim: the code was not exchanged
    const tokens = await stack.control<unknown[]>('GET', `/tokens?userId=${await stack.kickUserId(victimKickName)}`);
    expect(tokens).toEqual([]);
  });

  test("when the callback comes with another browser's cookie, then kick_error=general, nothing is linked, and that browser's own link still works", async () => {
    const attacker = aUser();
    const victim = aUser();
    const victimKickName = aKickName('victim');
    // the victim's browser holds a cookie of its own: its own link, started and approved
    const victimsOwn = await stack.startLink('/api/platform/kick/link', stack.tokenFor(victim), {
      sandbox_auto_approve: victimKickName,
    });
    const attackersQuery = await victimApproves(attacker, victimKickName);

    const result = await stack.callback(attackersQuery, victimsOwn.cookie);

    expect(result.location).toBe('/dashboard?kick_error=general');
    // the victim's cookie is left alone
    expect(result.setCookies).toEqual([]);
    expect((await statusOf(attacker)).json.data.hasKickAccount).toBe(false);
    expect(await savedLinkOf(victimKickName)).toBeNull();
    expect(accountEventsOf(attacker)).toEqual([]);
    // the victim's own link, started before, completes in their browser
    const own = await stack.callback(victimsOwn.query, victimsOwn.cookie);
    expect(own.location).toBe('/dashboard?kick_linked=true');
    expect((await statusOf(victim)).json.data.kickAccount?.kickUsername).toBe(victimKickName);
  });

  test('when the callback came to another browser first, then the state is spent: the starting browser cannot use it afterwards', async () => {
    const attacker = aUser();
    const { query, cookie } = await stack.startLink('/api/platform/kick/link', stack.tokenFor(attacker), {
      sandbox_auto_approve: aKickName('victim'),
    });

    expect((await stack.callback(query, null)).location).toBe('/dashboard?kick_error=general');
    const withTheCookie = await stack.callback(query, cookie);

    expect(withTheCookie.location).toBe('/dashboard?kick_error=general');
    expect(accountEventsOf(attacker)).toEqual([]);
  });

  test('when the starting browser comes back with its cookie, then the link is saved and the cookie is cleared', async () => {
    const userId = aUser();
    const kickName = aKickName();
    const query = await stack.authorize(userId, { sandbox_auto_approve: kickName });

    const result = await stack.callback(query);

    expect(result.location).toBe('/dashboard?kick_linked=true');
    expect((await savedLinkOf(kickName))?._id).toBe(userId);
    expect(accountEventsOf(userId)).toHaveLength(1);
    expect(result.setCookies).toEqual([
      'kickstand_oauth=; Path=/api/kick/oauth/callback; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    ]);
  });

  test("when the right key comes under the bot account flow's cookie name, then a streamer state refuses it", async () => {
    const userId = aUser();
    const { query, cookie } = await stack.startLink('/api/platform/kick/link', stack.tokenFor(userId), {
      sandbox_auto_approve: aKickName(),
    });

    const result = await stack.callback(query, cookie.replace('kickstand_oauth=', 'kickstand_oauth_bot='));

    expect(result.location).toBe('/dashboard?kick_error=general');
    expect(accountEventsOf(userId)).toEqual([]);
  });
});

describe('GET /api/platform/kick/status', () => {
  test('when nothing is linked, then hasKickAccount is false and kickAccount null', async () => {
    const answer = await statusOf(aUser());
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      success: true,
      data: { hasKickAccount: false, kickAccount: null, needsRelink: false },
    });
  });

  test('when nobody is signed in, then 401', async () => {
    expect((await stack.api('GET', '/api/platform/kick/status')).status).toBe(401);
  });
});

describe('DELETE /api/platform/kick/unlink', () => {
  test('when linked, then the tokens are revoked at Kick, every subscription of the channel goes, the link goes, and UNLINKED and chat.subscription INACTIVE are published', async () => {
    const userId = aUser();
    const kickName = aKickName();
    await stack.link(userId, kickName);
    const kickUserId = await stack.kickUserId(kickName);
    await stack.subscribeAtKick(kickUserId, ['chat.message.sent', 'channel.followed', 'moderation.banned']);
    expect(await stack.subscriptionsAtKick(kickUserId)).toHaveLength(3);

    const answer = await stack.api('DELETE', '/api/platform/kick/unlink', { token: stack.tokenFor(userId) });

    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ success: true });
    const tokens = await stack.control<{ isActive: boolean; kind: string }[]>('GET', `/tokens?userId=${kickUserId}`);
    expect(tokens.filter((token) => token.isActive)).toEqual([]);
    const revokes = await stack.control<{ status: number }[]>('GET', '/calls?endpoint=oauth.revoke');
    expect(revokes.length).toBeGreaterThanOrEqual(2);
    expect(await stack.subscriptionsAtKick(kickUserId)).toEqual([]);
    expect((await statusOf(userId)).json.data).toEqual({
      hasKickAccount: false,
      kickAccount: null,
      needsRelink: false,
    });
    expect(accountEventsOf(userId).map(({ message }) => message.kind)).toEqual([
      KickAccountChangeKind.LINKED,
      KickAccountChangeKind.UNLINKED,
    ]);
    const unlinked = accountEventsOf(userId)[1]?.message;
    expect(unlinked).toMatchObject({ kickUserId: String(kickUserId), kickUsername: kickName });
    const chat = stack.recorded.publishedWithKeys('chat.subscription').filter(({ key }) => key === userId);
    expect(chat.map(({ message }) => [message.state, message.broadcasterUserId])).toEqual([
      [ChatSubscriptionState.INACTIVE, String(kickUserId)],
    ]);
  });

  test('when nothing is linked, then 404 "No Kick account is linked"', async () => {
    const answer = await stack.api('DELETE', '/api/platform/kick/unlink', { token: stack.tokenFor(aUser()) });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ success: false, error: 'No Kick account is linked' });
  });

  test('when the tokens are already dead at Kick, then the unlink still happens', async () => {
    const userId = aUser();
    const kickName = aKickName();
    await stack.link(userId, kickName);
    // the tokens are already dead at Kick: revoking them is a no-op there, and nothing may keep the link
    const kickUserId = await stack.kickUserId(kickName);
    await stack.control('POST', '/tokens/invalidate', { userId: kickUserId });

    const answer = await stack.api('DELETE', '/api/platform/kick/unlink', { token: stack.tokenFor(userId) });

    expect(answer.status).toBe(200);
    await eventually(async () => expect((await statusOf(userId)).json.data.hasKickAccount).toBe(false));
  });
});

describe('the platform routes behind the webhook door', () => {
  test('when /healthz or an unknown path is asked for, then the platform answers as in every service', async () => {
    const health = await stack.api('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ success: true, data: { service: 'kick-link', status: 'alive' } });
    const ready = await stack.api('GET', '/readyz');
    expect(ready.status).toBe(200);
    const missing = await stack.api('GET', '/api/kick/webhook');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ success: false, error: 'Not found: GET /api/kick/webhook' });
  });
});
