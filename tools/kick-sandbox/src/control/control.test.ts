import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

const streamer = seedUserIds.sandbox_streamer;

interface UserView {
  userId: number;
  username: string;
  channel: { isLive: boolean; streamTitle: string; moderatorUserIds: number[]; activeSubscribersCount: number };
}

interface ChatLine {
  seq: number;
  messageId: string;
  senderUsername: string;
  content: string;
  badges: { text: string; type: string; count?: number }[];
}

describe('the control API', () => {
  let sandbox: SandboxHarness;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    await sandbox.request('POST', '/public/v1/events/subscriptions', {
      token: await sandbox.appToken(),
      body: {
        broadcaster_user_id: streamer,
        method: 'webhook',
        events: ['chat.message.sent', 'livestream.status.updated', 'channel.subscription.new'].map((name) => ({
          name,
          version: 1,
        })),
      },
    });
  });
  afterAll(() => sandbox.close());

  describe('users and channels', () => {
    test('when the sandbox starts the first time, then the seed users exist with Kick-like integer ids', async () => {
      const users = await sandbox.control<UserView[]>('GET', '/users');
      expect(users.map((user) => [user.username, user.userId])).toEqual(
        expect.arrayContaining([
          ['sandbox_streamer', 4377088],
          ['sandbox_bot', 4377101],
          ['viewer_alice', 555001],
          ['kickstand_app', expect.any(Number)],
        ]),
      );
      expect(users.find((user) => user.username === 'sandbox_streamer')?.channel.moderatorUserIds).toEqual([4377101]);
    });

    test('when a user is created, then 201 with the view; the same name again is 409', async () => {
      const answer = await sandbox.request('POST', '/sandbox/api/users', {
        body: { username: 'Fresh_Streamer', streamTitle: 'hi' },
      });
      expect(answer.status).toBe(201);
      expect(answer.json).toMatchObject({
        success: true,
        data: { username: 'Fresh_Streamer', slug: 'fresh_streamer', channel: { streamTitle: 'hi' } },
      });
      const again = await sandbox.request('POST', '/sandbox/api/users', { body: { username: 'fresh_streamer' } });
      expect(again.status).toBe(409);
      expect(again.json).toEqual({ success: false, error: expect.stringContaining('already exists') });
    });

    test('when a user body is invalid, then 400 with the reason and details', async () => {
      const answer = await sandbox.request('POST', '/sandbox/api/users', { body: { username: 'a b', surprise: true } });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ success: false, error: expect.any(String), details: expect.any(Array) });
    });

    test('when the body is not JSON, then 400, not 500', async () => {
      const answer = await sandbox.request('POST', '/sandbox/api/users', { body: '{"username":' });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ success: false, error: 'Request body is not valid JSON' });
    });

    test('when a channel is set live silently, then no event is sent', async () => {
      sandbox.receiver.clear();
      const updated = await sandbox.control<UserView>('PATCH', `/channels/${seedUserIds.other_streamer}`, {
        isLive: true,
        streamTitle: 'quiet',
      });
      expect(updated.channel).toMatchObject({ isLive: true, streamTitle: 'quiet' });
      const deliveries = await sandbox.control<unknown[]>(
        'GET',
        `/deliveries?broadcasterUserId=${seedUserIds.other_streamer}`,
      );
      expect(deliveries).toEqual([]);
    });

    test('when an unknown user is named, then 404', async () => {
      const answer = await sandbox.request('GET', '/sandbox/api/users/nobody_at_all');
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ success: false, error: 'No Kick user nobody_at_all' });
    });
  });

  describe('triggers', () => {
    test('when a viewer chats with badges, then the message is recorded with them and a delivery is answered', async () => {
      const answer = await sandbox.request('POST', '/sandbox/api/events/chat', {
        body: {
          broadcaster: 'sandbox_streamer',
          sender: 'new_viewer_x',
          content: 'hi',
          badges: ['vip', { type: 'subscriber', count: 3 }],
        },
      });
      expect(answer.status).toBe(201);
      const data = (answer.json as { data: { message: ChatLine; deliveries: { eventType: string }[] } }).data;
      expect(data.message.badges).toEqual([
        { text: 'VIP', type: 'vip' },
        { text: 'Subscriber', type: 'subscriber', count: 3 },
      ]);
      expect(data.deliveries.map((delivery) => delivery.eventType)).toEqual(['chat.message.sent']);
    });

    test('when a viewer chats without badges, then the badges come from what the sandbox knows', async () => {
      const { message } = await sandbox.control<{ message: ChatLine }>('POST', '/events/chat', {
        broadcaster: streamer,
        sender: streamer,
        content: 'I am the streamer',
      });
      expect(message.badges).toEqual([{ text: 'Broadcaster', type: 'broadcaster' }]);
      await sandbox.control('POST', '/events/subscription-new', {
        broadcaster: streamer,
        subscriber: 'viewer_carol',
        duration: 2,
      });
      const sub = await sandbox.control<{ message: ChatLine }>('POST', '/events/chat', {
        broadcaster: streamer,
        sender: 'viewer_carol',
        content: 'x',
      });
      expect(sub.message.badges).toEqual([{ text: 'Subscriber', type: 'subscriber', count: 2 }]);
    });

    test('when a trigger is invalid, then 400 with the reason', async () => {
      const tooLong = await sandbox.request('POST', '/sandbox/api/events/chat', {
        body: { broadcaster: streamer, sender: 'viewer_bob', content: 'x'.repeat(501) },
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.json).toMatchObject({ success: false, error: 'content is at most 500 characters' });
      const noGifter = await sandbox.request('POST', '/sandbox/api/events/subscription-gifts', {
        body: { broadcaster: streamer, giftees: ['a_b_c'] },
      });
      expect(noGifter.json).toMatchObject({ success: false, error: 'name a gifter, or set isAnonymous: true' });
    });

    test('when the reply target is unknown, then 404', async () => {
      const answer = await sandbox.request('POST', '/sandbox/api/events/chat', {
        body: { broadcaster: streamer, sender: 'viewer_bob', content: 'x', replyToMessageId: 'nope' },
      });
      expect(answer.status).toBe(404);
    });

    test('when a stream starts twice, then the second is 409; ending it works once', async () => {
      expect(
        (await sandbox.request('POST', '/sandbox/api/events/stream-start', { body: { broadcaster: streamer } })).status,
      ).toBe(201);
      const again = await sandbox.request('POST', '/sandbox/api/events/stream-start', {
        body: { broadcaster: streamer },
      });
      expect(again.status).toBe(409);
      expect(
        (await sandbox.request('POST', '/sandbox/api/events/stream-end', { body: { broadcaster: streamer } })).status,
      ).toBe(201);
      expect(
        (await sandbox.request('POST', '/sandbox/api/events/stream-end', { body: { broadcaster: streamer } })).status,
      ).toBe(409);
    });

    test('when a raw event of an unknown type is triggered, then it is delivered as is', async () => {
      await sandbox.request('POST', '/public/v1/events/subscriptions', {
        token: await sandbox.appToken(),
        body: { broadcaster_user_id: streamer, method: 'webhook', events: [{ name: 'kicks.gifted', version: 1 }] },
      });
      sandbox.receiver.clear();
      await sandbox.control('POST', '/events/raw', {
        broadcaster: streamer,
        type: 'kicks.gifted',
        payload: { gift: { amount: 100 } },
      });
      const [delivery] = await sandbox.receiver.waitFor(1, (d) => d.headers['kick-event-type'] === 'kicks.gifted');
      expect(delivery?.body).toEqual({ gift: { amount: 100 } });
    });
  });

  describe('waiting for what the product did', () => {
    test('when waitMs is given and nothing is there yet, then the answer comes as soon as a message arrives', async () => {
      const latest = await sandbox.control<ChatLine[]>('GET', `/chat?broadcasterUserId=${streamer}`);
      const afterSeq = latest.at(-1)?.seq ?? 0;
      const waiting = sandbox.control<ChatLine[]>(
        'GET',
        `/chat?broadcaster_user_id=${streamer}&afterSeq=${afterSeq}&waitMs=5000`,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const token = (await sandbox.linkUser('sandbox_bot', ['chat:write'])).access_token;
      await sandbox.request('POST', '/public/v1/chat', {
        token,
        body: { type: 'user', broadcaster_user_id: streamer, content: 'bot says hi' },
      });
      const found = await waiting;
      expect(found.map((line) => line.content)).toEqual(['bot says hi']);
    });

    test('when nothing arrives within waitMs, then an empty list', async () => {
      const started = Date.now();
      expect(
        await sandbox.control<ChatLine[]>('GET', `/chat?broadcasterUserId=${streamer}&afterSeq=999999&waitMs=200`),
      ).toEqual([]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    });

    test('when a query parameter is malformed, then 400', async () => {
      const answer = await sandbox.request('GET', '/sandbox/api/chat?waitMs=99999999');
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ success: false });
    });

    test('when tokens are listed, then ids and metadata but never the token values', async () => {
      const linked = await sandbox.linkUser('viewer_alice', ['user:read']);
      const tokens = await sandbox.control<{ id: string; kind: string; isActive: boolean }[]>(
        'GET',
        '/tokens?userId=555001',
      );
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(tokens)).not.toContain(linked.access_token);
      const access = tokens.find((token) => token.kind === 'access' && token.isActive);
      const { count } = await sandbox.control<{ count: number }>('POST', '/tokens/expire', { id: access?.id });
      expect(count).toBe(1);
    });

    test('when a token selector is empty, then 400', async () => {
      const answer = await sandbox.request('POST', '/sandbox/api/tokens/expire', { body: {} });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ success: false, error: 'name the tokens: token, id, userId and/or kind' });
    });

    test('when the app is read, then its id, client id and settings', async () => {
      expect(await sandbox.control('GET', '/app')).toMatchObject({
        clientId: 'kickstand-test',
        appId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        webhookUrl: sandbox.receiver.url,
        isWebhookEnabled: true,
        subscriptionLimit: 1000,
      });
    });

    test('when an unknown control route is called, then a JSON 404', async () => {
      const answer = await sandbox.request('GET', '/sandbox/api/nothing');
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ success: false });
    });
  });
});
