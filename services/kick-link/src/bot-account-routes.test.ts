import { randomUUID } from 'node:crypto';
import { eventually } from '@kickstand/platform/testing';
import { ChatOrigin } from '@kickstand/proto';
import { aKickName, startStack, type Stack } from './testing/test-harness';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack.close();
});

const adminToken = () => stack.tokenFor('admin-1', 'SUPER_ADMIN', 'root');

interface BotAccountBody {
  success: boolean;
  data: { botAccount: { kickUserId: string; kickUsername: string; linkedAt: string; needsRelink: boolean } | null };
}

const startBotAccountLink = (authorizeExtras: Record<string, string>) =>
  stack.startLink('/api/admin/bot-account/link', adminToken(), authorizeExtras);

/** The admin's round trip through Kick's authorize page, approved as `kickUsername`, in the admin's browser. */
async function linkBotAccount(kickUsername: string): Promise<string> {
  const { query } = await startBotAccountLink({ sandbox_auto_approve: kickUsername });
  return (await stack.callback(query)).location;
}

const shownBotAccount = async () =>
  (await stack.api<BotAccountBody>('GET', '/api/admin/bot-account', { token: adminToken() })).json.data.botAccount;

describe('bot account admin routes', () => {
  test('when a streamer or nobody asks, then 403 and 401', async () => {
    const asStreamer = await stack.api('GET', '/api/admin/bot-account', { token: stack.tokenFor('u-1') });
    const anonymous = await stack.api('POST', '/api/admin/bot-account/link');
    const unlinkAsStreamer = await stack.api('DELETE', '/api/admin/bot-account', { token: stack.tokenFor('u-1') });

    expect([asStreamer.status, anonymous.status, unlinkAsStreamer.status]).toEqual([403, 401, 403]);
  });

  test('when nothing is linked, then the bot account is null and unlinking answers 404', async () => {
    const shown = await stack.api<BotAccountBody>('GET', '/api/admin/bot-account', { token: adminToken() });
    const unlinked = await stack.api('DELETE', '/api/admin/bot-account', { token: adminToken() });

    expect(shown.json).toEqual({ success: true, data: { botAccount: null } });
    expect(unlinked.status).toBe(404);
    expect(unlinked.json).toEqual({ success: false, error: 'No bot account is linked' });
  });

  test('when the admin starts linking, then the authorize URL asks for user:read and chat:write only', async () => {
    const started = await stack.api<{ data: { authUrl: string } }>('POST', '/api/admin/bot-account/link', {
      token: adminToken(),
    });

    expect(started.status).toBe(200);
    const params = new URL(started.json.data.authUrl).searchParams;
    expect(params.get('scope')).toBe('user:read chat:write');
    expect(params.get('code_challenge_method')).toBe('S256');
  });

  test('when the admin links a Kick account, then it is shown, replies are posted by it as "user", and unlinking forgets it', async () => {
    const botName = aKickName('bot');
    const streamerName = aKickName();
    const userId = `u-${randomUUID()}`;
    await stack.link(userId, streamerName);
    const broadcasterId = String(await stack.kickUserId(streamerName));

    expect(await linkBotAccount(botName)).toBe('/admin/webhooks?bot_linked=true');

    const shown = await stack.api<BotAccountBody>('GET', '/api/admin/bot-account', { token: adminToken() });
    expect(shown.json.data.botAccount).toMatchObject({
      kickUserId: String(await stack.kickUserId(botName)),
      kickUsername: botName,
      needsRelink: false,
    });
    const sender = await stack.api<{ data: Record<string, unknown> }>('GET', '/api/platform/kick/chat-sender', {
      token: stack.tokenFor(userId),
    });
    expect(sender.json.data).toMatchObject({ kind: 'bot-account', kickUsername: botName, botAccountUsername: botName });

    await stack.subscribeAtKick(Number(broadcasterId), ['chat.message.sent']);
    await stack.platform.bus.publish('chat.send', broadcasterId, {
      eventId: randomUUID(),
      idempotencyKey: `reply:${randomUUID()}`,
      broadcasterUserId: broadcasterId,
      ownerUserId: userId,
      content: 'said by the bot account',
      origin: ChatOrigin.COMMAND,
    });
    await eventually(() =>
      expect(stack.recorded.published('chat.sent').filter((m) => m.broadcasterUserId === broadcasterId)).toHaveLength(
        1,
      ),
    );
    const lines = await stack.control<{ type: string; senderUsername: string; content: string }[]>(
      'GET',
      `/chat?broadcasterUserId=${broadcasterId}&type=user`,
    );
    expect(lines.map((line) => [line.content, line.senderUsername])).toEqual([['said by the bot account', botName]]);
    // its echo is the bot's own line; the streamer's typed $command is not, even in the same words
    await stack.control('POST', '/events/chat', { broadcaster: streamerName, sender: streamerName, content: '$hello' });
    const received = () =>
      stack.recorded.published('chat.received').filter((m) => m.broadcasterUserId === broadcasterId);
    await eventually(() => expect(received()).toHaveLength(2), 5000);
    expect(Object.fromEntries(received().map((m) => [m.content, m.isFromBot]))).toEqual({
      'said by the bot account': true,
      $hello: false,
    });

    const unlinked = await stack.api('DELETE', '/api/admin/bot-account', { token: adminToken() });
    expect(unlinked.json).toEqual({ success: true, message: 'Bot account unlinked', data: { botAccount: null } });
    const after = await stack.api<{ data: Record<string, unknown> }>('GET', '/api/platform/kick/chat-sender', {
      token: stack.tokenFor(userId),
    });
    expect(after.json.data).toMatchObject({
      kind: 'streamer-bot',
      kickUsername: streamerName,
      botAccountUsername: null,
    });
  });

  test('when the streamer has no Kick link, then who-speaks answers 404', async () => {
    const answer = await stack.api('GET', '/api/platform/kick/chat-sender', { token: stack.tokenFor('u-nolink') });
    expect(answer.status).toBe(404);
  });

  test('when Kick sends the admin back with an error, then the admin page says linking failed', async () => {
    const { query, cookie } = await startBotAccountLink({ sandbox_auto_deny: '1' });
    expect(query).toContain('error=access_denied');

    const answer = await stack.callback(query, cookie);

    expect(answer.location).toBe('/admin/webhooks?bot_error=general');
  });

  test('when the admin starts linking, then the browser gets its own HttpOnly SameSite=Lax cookie for the callback path', async () => {
    const started = await stack.api('POST', '/api/admin/bot-account/link', { token: adminToken() });

    const attributes = (started.headers.getSetCookie()[0] ?? '').split('; ');
    expect(attributes.filter((attribute) => !attribute.startsWith('Expires='))).toEqual([
      expect.stringMatching(/^kickstand_oauth_bot=[A-Za-z0-9_-]{43}$/),
      'Max-Age=600',
      'Path=/api/kick/oauth/callback',
      'HttpOnly',
      'SameSite=Lax',
    ]);
  });
});

describe('the bot account link is bound to the admin browser that started it (link CSRF)', () => {
  test("when someone else's browser brings the admin's state back from Kick, then the link-error screen, and no bot account is saved", async () => {
    await stack.api('DELETE', '/api/admin/bot-account', { token: adminToken() });
    const victimKickName = aKickName('victim');
    const { query } = await startBotAccountLink({ sandbox_auto_approve: victimKickName });

    const withoutCookie = await stack.callback(query, null);

    expect(withoutCookie.status).toBe(302);
    expect(withoutCookie.location).toBe('/dashboard?kick_error=general');
    expect(withoutCookie.setCookies).toEqual([]);
    expect(await shownBotAccount()).toBeNull();
    // Kick issued no tokens for the victim: the code was not exchanged
    expect(await stack.control('GET', `/tokens?userId=${await stack.kickUserId(victimKickName)}`)).toEqual([]);
  });

  test("when the callback comes with another bot account start's cookie, then it is refused and the bot account is unchanged", async () => {
    const botName = aKickName('bot');
    expect(await linkBotAccount(botName)).toBe('/admin/webhooks?bot_linked=true');
    const attackers = await startBotAccountLink({ sandbox_auto_approve: aKickName('victim') });
    const othersCookie = (await startBotAccountLink({ sandbox_auto_approve: aKickName() })).cookie;

    const answer = await stack.callback(attackers.query, othersCookie);

    expect(answer.location).toBe('/dashboard?kick_error=general');
    expect((await shownBotAccount())?.kickUsername).toBe(botName);
  });

  test('when the admin browser comes back with its cookie, then the bot account is linked and the cookie is cleared', async () => {
    const botName = aKickName('bot');
    const { query } = await startBotAccountLink({ sandbox_auto_approve: botName });

    const answer = await stack.callback(query);

    expect(answer.location).toBe('/admin/webhooks?bot_linked=true');
    expect(answer.setCookies).toEqual([
      'kickstand_oauth_bot=; Path=/api/kick/oauth/callback; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    ]);
    expect((await shownBotAccount())?.kickUsername).toBe(botName);
  });
});
