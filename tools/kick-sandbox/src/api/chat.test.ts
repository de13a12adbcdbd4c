import { createFakeClock } from '@kickstand/platform/testing';
import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

const invalidRequest = { data: {}, message: 'Invalid request' };
const streamer = seedUserIds.sandbox_streamer;

interface ChatLine {
  messageId: string;
  senderUsername: string;
  type: string;
  content: string;
  replyTo: { messageId: string; content: string; senderUsername: string } | null;
  seq: number;
}

describe('POST /public/v1/chat', () => {
  let sandbox: SandboxHarness;
  let streamerToken: string;
  let botAccountToken: string;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    streamerToken = (
      await sandbox.linkUser('sandbox_streamer', ['chat:write', 'events:subscribe', 'moderation:chat_message:manage'])
    ).access_token;
    botAccountToken = (await sandbox.linkUser('sandbox_bot', ['chat:write'])).access_token;
    await sandbox.request('POST', '/public/v1/events/subscriptions', {
      token: streamerToken,
      body: { method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] },
    });
  });
  beforeEach(() => sandbox.receiver.clear());
  afterAll(() => sandbox.close());

  const send = (token: string, body: unknown) => sandbox.request('POST', '/public/v1/chat', { token, body });

  test('when a bot account posts as user, then is_sent with a UUID, the message is recorded and echoed as chat.message.sent', async () => {
    const answer = await send(botAccountToken, {
      type: 'user',
      broadcaster_user_id: streamer,
      content: 'hello chat [emote:37226:KEKW]',
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      data: { is_sent: true, message_id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      message: 'OK',
    });
    const messageId = (answer.json as { data: { message_id: string } }).data.message_id;

    const lines = await sandbox.control<ChatLine[]>('GET', `/chat?broadcaster_user_id=${streamer}&type=user`);
    expect(lines.at(-1)).toMatchObject({
      messageId,
      senderUsername: 'sandbox_bot',
      type: 'user',
      content: 'hello chat [emote:37226:KEKW]',
    });

    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(delivery?.headers['kick-event-type']).toBe('chat.message.sent');
    expect(delivery?.body).toMatchObject({
      message_id: messageId,
      broadcaster: { user_id: streamer, username: 'sandbox_streamer', identity: null },
      sender: {
        user_id: seedUserIds.sandbox_bot,
        username: 'sandbox_bot',
        identity: { username_color: '#00CED1', badges: [{ text: 'Moderator', type: 'moderator' }] },
      },
      emotes: [{ emote_id: '37226', positions: [{ s: 11, e: 28 }] }],
    });
  });

  test("when type is bot, then it lands in the token owner's chat as the app's bot, whatever broadcaster_user_id says", async () => {
    const answer = await send(streamerToken, {
      type: 'bot',
      broadcaster_user_id: seedUserIds.other_streamer,
      content: 'beep',
    });
    expect(answer.status).toBe(200);
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(delivery?.body).toMatchObject({
      broadcaster: { user_id: streamer },
      sender: { username: 'kickstand_app', identity: { badges: [{ text: 'Bot', type: 'bot' }] } },
      content: 'beep',
    });
  });

  test("when the app's bot mode is off, then type bot is 400 Channel not found", async () => {
    await sandbox.control('PATCH', '/app', { isBotEnabled: false });
    try {
      const answer = await send(streamerToken, { type: 'bot', content: 'beep' });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ data: 'Channel not found', message: 'Bad request' });
    } finally {
      await sandbox.control('PATCH', '/app', { isBotEnabled: true });
    }
  });

  test('when replying to an existing message, then the echo carries replies_to with the original', async () => {
    const viewer = await sandbox.control<{ message: { messageId: string } }>('POST', '/events/chat', {
      broadcaster: streamer,
      sender: 'viewer_alice',
      content: 'anyone know the song?',
    });
    await sandbox.receiver.waitFor(1);
    sandbox.receiver.clear();
    const answer = await send(botAccountToken, {
      type: 'user',
      broadcaster_user_id: streamer,
      content: 'it is lofi',
      reply_to_message_id: viewer.message.messageId,
    });
    expect(answer.status).toBe(200);
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(delivery?.body).toMatchObject({
      replies_to: {
        message_id: viewer.message.messageId,
        content: 'anyone know the song?',
        sender: { username: 'viewer_alice', identity: null },
      },
    });
    const lines = await sandbox.control<ChatLine[]>('GET', `/chat?broadcasterUserId=${streamer}&type=user`);
    expect(lines.at(-1)?.replyTo).toEqual({
      messageId: viewer.message.messageId,
      content: 'anyone know the song?',
      senderUsername: 'viewer_alice',
    });
  });

  test('when the reply target does not exist, then 400 and nothing is sent', async () => {
    const answer = await send(botAccountToken, {
      type: 'user',
      broadcaster_user_id: streamer,
      content: 'reply',
      reply_to_message_id: '3f2b8a10-5c6e-4d7f-9a01-7b2c3d4e5f60',
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ data: 'Message not found', message: 'Bad request' });
  });

  test('when unknown reply targets are accepted (load tests), then the reply is recorded with the id and echoed without replies_to', async () => {
    const lenient = await startSandboxForTest({ options: { acceptsUnknownReplyTargets: true } });
    try {
      const token = (await lenient.linkUser('sandbox_bot', ['chat:write'])).access_token;
      const targetId = '3f2b8a10-5c6e-4d7f-9a01-7b2c3d4e5f60';
      const answer = await lenient.request('POST', '/public/v1/chat', {
        token,
        body: { type: 'user', broadcaster_user_id: streamer, content: 'reply', reply_to_message_id: targetId },
      });
      expect(answer.status).toBe(200);
      const lines = await lenient.control<(ChatLine & { replyToMessageId: string | null })[]>(
        'GET',
        `/chat?broadcasterUserId=${streamer}&type=user`,
      );
      expect(lines.at(-1)).toMatchObject({ content: 'reply', replyToMessageId: targetId, replyTo: null });
    } finally {
      await lenient.close();
    }
  });

  test.each([
    ['type is missing', { broadcaster_user_id: streamer, content: 'x' }],
    ['type is not user or bot', { type: 'system', broadcaster_user_id: streamer, content: 'x' }],
    ['content is empty', { type: 'user', broadcaster_user_id: streamer, content: '' }],
    ['content is 501 characters', { type: 'user', broadcaster_user_id: streamer, content: 'x'.repeat(501) }],
    ['content is not a string', { type: 'user', broadcaster_user_id: streamer, content: 42 }],
    ['broadcaster_user_id is missing for type user', { type: 'user', content: 'x' }],
    ['broadcaster_user_id is a string', { type: 'user', broadcaster_user_id: String(streamer), content: 'x' }],
  ])('when %s, then 400 Invalid request', async (_name, body) => {
    const answer = await send(botAccountToken, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when content is exactly 500 characters (emoji counting once), then it is sent', async () => {
    const answer = await send(botAccountToken, {
      type: 'user',
      broadcaster_user_id: streamer,
      content: '😀'.repeat(500),
    });
    expect(answer.status).toBe(200);
  });

  test('when the channel does not exist, then 400 Channel not found', async () => {
    const answer = await send(botAccountToken, { type: 'user', broadcaster_user_id: 12345678, content: 'x' });
    expect(answer.json).toEqual({ data: 'Channel not found', message: 'Bad request' });
  });

  test('when an app token sends chat, then 401; a user token without chat:write, 403', async () => {
    const app = await sandbox.appToken();
    const byApp = await send(app, { type: 'user', broadcaster_user_id: streamer, content: 'x' });
    expect(byApp.status).toBe(401);
    expect(byApp.json).toEqual({ data: {}, message: 'Unauthorized' });
    const readOnly = await sandbox.linkUser('viewer_carol', ['user:read']);
    expect(
      (await send(readOnly.access_token, { type: 'user', broadcaster_user_id: streamer, content: 'x' })).status,
    ).toBe(403);
  });

  test('when the sender is banned in the channel, then 400 and nothing is posted', async () => {
    const banned = await sandbox.linkUser('viewer_bob', ['chat:write']);
    await sandbox.control('POST', '/events/ban', { broadcaster: streamer, user: 'viewer_bob' });
    const answer = await send(banned.access_token, {
      type: 'user',
      broadcaster_user_id: streamer,
      content: 'let me talk',
    });
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toBe('Bad request');
  });

  test('when a moderator deletes a message, then 204 and it is marked deleted; again, 404', async () => {
    const sent = await send(botAccountToken, { type: 'user', broadcaster_user_id: streamer, content: 'oops' });
    const messageId = (sent.json as { data: { message_id: string } }).data.message_id;
    const answer = await sandbox.request('DELETE', `/public/v1/chat/${messageId}`, { token: streamerToken });
    expect(answer.status).toBe(204);
    const lines = await sandbox.control<(ChatLine & { deletedAt: string | null })[]>(
      'GET',
      `/chat?broadcasterUserId=${streamer}`,
    );
    expect(lines.find((line) => line.messageId === messageId)?.deletedAt).toEqual(expect.any(String));
    expect((await sandbox.request('DELETE', `/public/v1/chat/${messageId}`, { token: streamerToken })).status).toBe(
      404,
    );
  });

  test('when a user without moderation scope deletes, then 403', async () => {
    const sent = await send(botAccountToken, { type: 'user', broadcaster_user_id: streamer, content: 'keep me' });
    const messageId = (sent.json as { data: { message_id: string } }).data.message_id;
    expect((await sandbox.request('DELETE', `/public/v1/chat/${messageId}`, { token: botAccountToken })).status).toBe(
      403,
    );
  });
});

describe('the daily chat quota', () => {
  test("when the app has used its quota, then 400 with Kick's quota text", async () => {
    const sandbox = await startSandboxForTest({ options: { chatDailyQuota: 2 } });
    try {
      const token = (await sandbox.linkUser('sandbox_bot', ['chat:write'])).access_token;
      const body = { type: 'user', broadcaster_user_id: streamer, content: 'hi' };
      expect((await sandbox.request('POST', '/public/v1/chat', { token, body })).status).toBe(200);
      expect((await sandbox.request('POST', '/public/v1/chat', { token, body })).status).toBe(200);
      const third = await sandbox.request('POST', '/public/v1/chat', { token, body });
      expect(third.status).toBe(400);
      expect(third.json).toEqual({
        data: 'Pusher error: API call failed since (daily) message quota exceeded',
        message: 'Bad request',
      });
    } finally {
      await sandbox.close();
    }
  });
});

describe('the daily chat quota, counted as lines are sent', () => {
  const clock = createFakeClock(new Date('2026-11-26T23:58:00Z'));
  let sandbox: SandboxHarness;
  let token: string;
  const send = (content: string) =>
    sandbox.request('POST', '/public/v1/chat', {
      token,
      body: { type: 'user', broadcaster_user_id: streamer, content },
    });
  beforeAll(async () => {
    sandbox = await startSandboxForTest({ clock, options: { chatDailyQuota: 2 } });
    token = (await sandbox.linkUser('sandbox_streamer', ['chat:write', 'moderation:chat_message:manage'])).access_token;
  });
  afterAll(() => sandbox.close());

  test('when a line sent today is deleted, then it still counts; when the UTC day changes, then the quota starts over', async () => {
    expect((await send('one')).status).toBe(200);
    const second = await send('two');
    const secondId = (second.json as { data: { message_id: string } }).data.message_id;
    expect((await sandbox.request('DELETE', `/public/v1/chat/${secondId}`, { token })).status).toBe(204);
    expect((await send('three')).json).toEqual({
      data: 'Pusher error: API call failed since (daily) message quota exceeded',
      message: 'Bad request',
    });

    clock.advance(3 * 60 * 1000); // 00:01 UTC the next day
    expect((await send('four')).status).toBe(200);
    expect((await send('five')).status).toBe(200);
    expect((await send('six')).status).toBe(400);
  });

  test('when viewers type in the chat (the control API), then their lines do not count toward the app quota', async () => {
    const before = (await sandbox.control<unknown[]>('GET', `/chat?broadcasterUserId=${streamer}&type=viewer`)).length;
    const typed = await sandbox.request('POST', '/sandbox/api/events/chat', {
      body: { broadcaster: streamer, sender: 'some_viewer', content: 'hello' },
    });
    expect(typed.status).toBe(201);
    expect(await sandbox.control<unknown[]>('GET', `/chat?broadcasterUserId=${streamer}&type=viewer`)).toHaveLength(
      before + 1,
    );
    expect((await send('seven')).status).toBe(400);
  });
});

describe('what the sandbox keeps of chat lines, calls and deliveries', () => {
  let sandbox: SandboxHarness;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandboxForTest({ options: { chatLinesKept: 2, recordsKept: 2 } });
    token = (await sandbox.linkUser('sandbox_streamer', ['chat:write', 'events:subscribe'])).access_token;
    await sandbox.request('POST', '/public/v1/events/subscriptions', {
      token,
      body: { method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] },
    });
  });
  afterAll(() => sandbox.close());

  test('when more were made than it keeps, then the control API lists the newest, and a reply to a dropped line is refused', async () => {
    const ids: string[] = [];
    for (const content of ['l1', 'l2', 'l3', 'l4']) {
      const answer = await sandbox.request('POST', '/public/v1/chat', { token, body: { type: 'bot', content } });
      ids.push((answer.json as { data: { message_id: string } }).data.message_id);
    }
    await sandbox.receiver.waitFor(4);
    // 2 kept, plus a tenth (rounded up) before the oldest go
    const lines = await sandbox.control<ChatLine[]>('GET', '/chat?type=bot');
    expect(lines.map((line) => [line.seq, line.content])).toEqual([
      [3, 'l3'],
      [4, 'l4'],
    ]);
    const calls = await sandbox.control<{ seq: number; endpoint: string }[]>('GET', '/calls');
    expect(calls.map((call) => call.endpoint)).toEqual(['chat', 'chat']);
    const deliveries = await sandbox.control<{ seq: number }[]>('GET', '/deliveries');
    expect(deliveries.map((delivery) => delivery.seq)).toEqual([3, 4]);

    const toDropped = await sandbox.request('POST', '/public/v1/chat', {
      token,
      body: { type: 'bot', content: 'late reply', reply_to_message_id: ids[0] },
    });
    expect(toDropped.status).toBe(400);
  });
});

describe('when Kick stamps a posted line', () => {
  // every reading of this clock is one second later, so each step of a request gets a time of its own
  let ticks = 0;
  const tickingClock = { now: () => new Date(Date.UTC(2026, 10, 26, 8, 0, 0) + 1000 * ticks++) };
  let sandbox: SandboxHarness;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandboxForTest({ clock: tickingClock });
    token = (await sandbox.linkUser('sandbox_streamer', ['chat:write', 'events:subscribe'])).access_token;
    await sandbox.request('POST', '/public/v1/events/subscriptions', {
      token,
      body: { method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] },
    });
  });
  afterAll(() => sandbox.close());

  test('when the product posts a line, then its createdAt and the echo created_at are when the request arrived, not when it was stored', async () => {
    const answer = await sandbox.request('POST', '/public/v1/chat', {
      token,
      body: { type: 'bot', content: 'stamped on arrival' },
    });
    const messageId = (answer.json as { data: { message_id: string } }).data.message_id;
    const calls = await sandbox.control<{ at: string; endpoint: string }[]>('GET', '/calls?endpoint=chat');
    const arrivedAt = calls.at(-1)?.at ?? '';
    const lines = await sandbox.control<{ messageId: string; createdAt: string }[]>('GET', '/chat?type=bot');
    expect(lines.find((line) => line.messageId === messageId)?.createdAt).toBe(arrivedAt);
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect((delivery?.body as { created_at: string }).created_at).toBe(arrivedAt.replace(/\.\d{3}Z$/, 'Z'));
  });
});
