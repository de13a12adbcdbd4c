import { ulidPattern } from '../ids';
import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

const invalidRequest = { data: {}, message: 'Invalid request' };
const streamer = seedUserIds.sandbox_streamer;
const other = seedUserIds.other_streamer;

interface SubscribeItem {
  name: string;
  version: number;
  subscription_id: string;
  error: string;
}

interface ListedSubscription {
  id: string;
  app_id: string;
  broadcaster_user_id: number;
  event: string;
}

describe('/public/v1/events/subscriptions', () => {
  let sandbox: SandboxHarness;
  let app: string;
  beforeEach(async () => {
    sandbox = await startSandboxForTest({ options: { subscriptionLimit: 5 } });
    app = await sandbox.appToken();
  });
  afterEach(() => sandbox.close());

  const subscribe = (token: string, body: unknown) =>
    sandbox.request('POST', '/public/v1/events/subscriptions', { token, body });
  const list = async (token: string, query = '') =>
    (
      (await sandbox.request('GET', `/public/v1/events/subscriptions${query}`, { token })).json as {
        data: ListedSubscription[];
      }
    ).data;

  test('when an app token subscribes a channel, then one result per event with a ULID id, and GET lists them', async () => {
    const answer = await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [
        { name: 'chat.message.sent', version: 1 },
        { name: 'channel.followed', version: 1 },
      ],
    });
    expect(answer.status).toBe(200);
    const items = (answer.json as { data: SubscribeItem[]; message: string }).data;
    expect(items).toEqual([
      { name: 'chat.message.sent', version: 1, subscription_id: expect.stringMatching(ulidPattern), error: '' },
      { name: 'channel.followed', version: 1, subscription_id: expect.stringMatching(ulidPattern), error: '' },
    ]);
    const listed = await list(app);
    expect(listed.map((s) => [s.id, s.event, s.broadcaster_user_id])).toEqual(
      items.map((item) => [item.subscription_id, item.name, streamer]),
    );
    expect(listed[0]?.app_id).toMatch(ulidPattern);
  });

  test('when one event is unknown, then that item has an error and the others succeed', async () => {
    const answer = await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [
        { name: 'chat.message.sent', version: 1 },
        { name: 'chat.message.teleported', version: 1 },
        { name: 'channel.followed', version: 2 },
      ],
    });
    const items = (answer.json as { data: SubscribeItem[] }).data;
    expect(items.map((item) => [item.error === '', item.subscription_id === ''])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });

  test('when the same event is subscribed twice, then two subscriptions exist (as on Kick)', async () => {
    const body = {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [{ name: 'chat.message.sent', version: 1 }],
    };
    await subscribe(app, body);
    await subscribe(app, body);
    expect((await list(app)).filter((s) => s.event === 'chat.message.sent')).toHaveLength(2);
  });

  test('when method is missing or not webhook, then 400 Invalid request', async () => {
    const events = [{ name: 'chat.message.sent', version: 1 }];
    for (const body of [
      { broadcaster_user_id: streamer, events },
      { broadcaster_user_id: streamer, method: 'websocket', events },
    ]) {
      const answer = await subscribe(app, body);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(invalidRequest);
    }
  });

  test('when an app token leaves out broadcaster_user_id, then 400 Invalid request', async () => {
    const answer = await subscribe(app, { method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] });
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when the limit would be passed, then 400 "event subscription limit reached" and nothing is created', async () => {
    const events = (count: number) => Array.from({ length: count }, () => ({ name: 'chat.message.sent', version: 1 }));
    expect((await subscribe(app, { broadcaster_user_id: streamer, method: 'webhook', events: events(4) })).status).toBe(
      200,
    );
    const answer = await subscribe(app, { broadcaster_user_id: other, method: 'webhook', events: events(2) });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ data: 'event subscription limit reached', message: 'Bad request' });
    expect(await list(app)).toHaveLength(4);
  });

  test('when a user token subscribes naming another channel, then its own channel is subscribed', async () => {
    const user = await sandbox.linkUser('sandbox_streamer', ['events:subscribe']);
    const answer = await subscribe(user.access_token, {
      broadcaster_user_id: other,
      method: 'webhook',
      events: [{ name: 'livestream.status.updated', version: 1 }],
    });
    expect(answer.status).toBe(200);
    expect((await list(app)).map((s) => s.broadcaster_user_id)).toEqual([streamer]);
  });

  test('when a user token lists, then only its own channel; without events:subscribe, 403', async () => {
    await subscribe(app, {
      broadcaster_user_id: other,
      method: 'webhook',
      events: [{ name: 'channel.followed', version: 1 }],
    });
    await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [{ name: 'channel.followed', version: 1 }],
    });
    const user = await sandbox.linkUser('sandbox_streamer', ['events:subscribe']);
    expect((await list(user.access_token)).map((s) => s.broadcaster_user_id)).toEqual([streamer]);
    const noScope = await sandbox.linkUser('sandbox_streamer', ['user:read']);
    expect(
      (await sandbox.request('GET', '/public/v1/events/subscriptions', { token: noScope.access_token })).status,
    ).toBe(403);
  });

  test("when GET filters by broadcaster_user_id, then only that channel's subscriptions", async () => {
    await subscribe(app, {
      broadcaster_user_id: other,
      method: 'webhook',
      events: [{ name: 'channel.followed', version: 1 }],
    });
    await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [{ name: 'channel.followed', version: 1 }],
    });
    expect((await list(app, `?broadcaster_user_id=${other}`)).map((s) => s.broadcaster_user_id)).toEqual([other]);
  });

  test('when DELETE names ids with repeated id parameters, then 204 and exactly those are gone', async () => {
    const answer = await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [
        { name: 'chat.message.sent', version: 1 },
        { name: 'channel.followed', version: 1 },
        { name: 'moderation.banned', version: 1 },
      ],
    });
    const [a, b, c] = (answer.json as { data: SubscribeItem[] }).data.map((item) => item.subscription_id);
    const deleted = await sandbox.request('DELETE', `/public/v1/events/subscriptions?id=${a}&id=${b}`, { token: app });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await list(app)).map((s) => s.id)).toEqual([c]);
  });

  test('when DELETE has no id or a malformed one, then 400 Invalid request', async () => {
    expect((await sandbox.request('DELETE', '/public/v1/events/subscriptions', { token: app })).json).toEqual(
      invalidRequest,
    );
    expect((await sandbox.request('DELETE', '/public/v1/events/subscriptions?id=nope', { token: app })).status).toBe(
      400,
    );
  });

  test("when the app's webhooks are switched off, then every subscription is removed and new ones are refused", async () => {
    await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [{ name: 'channel.followed', version: 1 }],
    });
    await sandbox.control('PATCH', '/app', { isWebhookEnabled: false });
    expect(await list(app)).toEqual([]);
    const refused = await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [{ name: 'channel.followed', version: 1 }],
    });
    expect(refused.status).toBe(400);
  });

  test('when subscription calls are made, then the control API lists them with the token kind', async () => {
    await subscribe(app, {
      broadcaster_user_id: streamer,
      method: 'webhook',
      events: [{ name: 'channel.followed', version: 1 }],
    });
    await subscribe(app, { broadcaster_user_id: streamer, events: [] });
    const calls = await sandbox.control<{ method: string; status: number; tokenType: string; body: unknown }[]>(
      'GET',
      '/calls?endpoint=events.subscriptions',
    );
    expect(calls.map((call) => [call.method, call.status, call.tokenType])).toEqual([
      ['POST', 200, 'app'],
      ['POST', 400, 'app'],
    ]);
  });
});
