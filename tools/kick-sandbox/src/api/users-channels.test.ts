import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

const unauthorized = { data: {}, message: 'Unauthorized' };
const invalidRequest = { data: {}, message: 'Invalid request' };

describe('GET /public/v1/users', () => {
  let sandbox: SandboxHarness;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    token = (await sandbox.linkUser('sandbox_streamer', ['user:read', 'channel:read'])).access_token;
  });
  afterAll(() => sandbox.close());

  test('when no id is given, then the token owner with their email', async () => {
    const answer = await sandbox.request('GET', '/public/v1/users', { token });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      data: [
        {
          user_id: seedUserIds.sandbox_streamer,
          name: 'sandbox_streamer',
          email: 'sandbox_streamer@sandbox.kick.test',
          profile_picture: `http://localhost:3100/sandbox/images/user-${seedUserIds.sandbox_streamer}.svg`,
        },
      ],
      message: 'OK',
    });
  });

  test('when ids are repeated, then those users in order, email empty for others, unknown ids absent', async () => {
    const answer = await sandbox.request(
      'GET',
      `/public/v1/users?id=${seedUserIds.viewer_alice}&id=99999999&id=${seedUserIds.sandbox_streamer}`,
      { token },
    );
    const data = (answer.json as { data: { user_id: number; email: string }[] }).data;
    expect(data.map((user) => [user.user_id, user.email])).toEqual([
      [seedUserIds.viewer_alice, ''],
      [seedUserIds.sandbox_streamer, 'sandbox_streamer@sandbox.kick.test'],
    ]);
  });

  test('when an id is not an integer, then 400 Invalid request', async () => {
    const answer = await sandbox.request('GET', '/public/v1/users?id=abc', { token });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test("when there is no token or an unknown one, then 401 in Kick's shape", async () => {
    for (const answer of [
      await sandbox.request('GET', '/public/v1/users'),
      await sandbox.request('GET', '/public/v1/users', { token: 'made-up' }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual(unauthorized);
    }
  });

  test('when the user token lacks user:read, then 403', async () => {
    const chatOnly = await sandbox.linkUser('viewer_bob', ['chat:write']);
    const answer = await sandbox.request('GET', '/public/v1/users', { token: chatOnly.access_token });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({ data: {}, message: 'Forbidden' });
  });

  test('when an app token names ids, then it gets them; without ids, 400', async () => {
    const app = await sandbox.appToken();
    const found = await sandbox.request('GET', `/public/v1/users?id=${seedUserIds.viewer_bob}`, { token: app });
    expect((found.json as { data: { email: string }[] }).data).toEqual([
      expect.objectContaining({ name: 'viewer_bob', email: '' }),
    ]);
    expect((await sandbox.request('GET', '/public/v1/users', { token: app })).status).toBe(400);
  });
});

describe('GET and PATCH /public/v1/channels', () => {
  let sandbox: SandboxHarness;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandboxForTest();
    token = (await sandbox.linkUser('sandbox_streamer', ['channel:read', 'channel:write', 'streamkey:read']))
      .access_token;
  });
  afterAll(() => sandbox.close());

  test("when no parameter is given, then the owner's channel, offline, with the stream key for streamkey:read", async () => {
    const answer = await sandbox.request('GET', '/public/v1/channels', { token });
    expect(answer.status).toBe(200);
    const [channel] = (answer.json as { data: Record<string, unknown>[] }).data;
    expect(channel).toMatchObject({
      broadcaster_user_id: seedUserIds.sandbox_streamer,
      slug: 'sandbox_streamer',
      stream_title: 'Chill sandbox stream',
      category: { id: 15, name: 'Just Chatting', thumbnail: expect.any(String) },
      stream: {
        is_live: false,
        is_mature: false,
        language: '',
        start_time: '0001-01-01T00:00:00Z',
        viewer_count: 0,
        thumbnail: '',
        custom_tags: [],
        url: expect.stringMatching(/^rtmps:\/\//),
        key: expect.stringMatching(/^sk_/),
      },
    });
  });

  test('when another channel is read, then its stream key stays empty', async () => {
    const answer = await sandbox.request(
      'GET',
      `/public/v1/channels?broadcaster_user_id=${seedUserIds.other_streamer}`,
      { token },
    );
    const [channel] = (answer.json as { data: { stream: { url: string; key: string } }[] }).data;
    expect(channel?.stream).toMatchObject({ url: '', key: '' });
  });

  test('when slugs are repeated, then those channels; an unknown slug is left out', async () => {
    const answer = await sandbox.request(
      'GET',
      '/public/v1/channels?slug=other_streamer&slug=nobody_here&slug=SANDBOX_STREAMER',
      { token },
    );
    expect((answer.json as { data: { slug: string }[] }).data.map((channel) => channel.slug)).toEqual([
      'other_streamer',
      'sandbox_streamer',
    ]);
  });

  test('when ids and slugs are mixed, then 400 Invalid request', async () => {
    const answer = await sandbox.request(
      'GET',
      `/public/v1/channels?broadcaster_user_id=${seedUserIds.sandbox_streamer}&slug=other_streamer`,
      { token },
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test('when more than 50 ids are asked, then 400; exactly 50 is fine', async () => {
    const ids = (count: number) =>
      Array.from({ length: count }, (_v, i) => `broadcaster_user_id=${1000 + i}`).join('&');
    expect((await sandbox.request('GET', `/public/v1/channels?${ids(51)}`, { token })).status).toBe(400);
    expect((await sandbox.request('GET', `/public/v1/channels?${ids(50)}`, { token })).status).toBe(200);
  });

  test('when an app token reads by id, then it works; with no parameter, 400', async () => {
    const app = await sandbox.appToken();
    expect(
      (
        await sandbox.request('GET', `/public/v1/channels?broadcaster_user_id=${seedUserIds.sandbox_streamer}`, {
          token: app,
        })
      ).status,
    ).toBe(200);
    expect((await sandbox.request('GET', '/public/v1/channels', { token: app })).status).toBe(400);
  });

  test('when the channel goes live through the control API, then the stream fields fill in', async () => {
    await sandbox.control('PATCH', `/channels/${seedUserIds.other_streamer}`, {
      isLive: true,
      viewerCount: 812,
      customTags: ['english'],
    });
    const answer = await sandbox.request('GET', `/public/v1/channels?slug=other_streamer`, { token });
    const [channel] = (answer.json as { data: { stream: Record<string, unknown> }[] }).data;
    expect(channel?.stream).toMatchObject({
      is_live: true,
      viewer_count: 812,
      custom_tags: ['english'],
      language: 'en',
    });
    expect(channel?.stream.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('when PATCH changes the title and category, then 204 and GET shows them', async () => {
    const answer = await sandbox.request('PATCH', '/public/v1/channels', {
      token,
      body: { stream_title: 'new title', category_id: 41 },
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const channel = await sandbox.request('GET', '/public/v1/channels', { token });
    expect((channel.json as { data: unknown[] }).data[0]).toMatchObject({
      stream_title: 'new title',
      category: { id: 41, name: 'Dota 2' },
    });
  });

  test('when PATCH has no field, a wrong type or an unknown category, then 400', async () => {
    expect((await sandbox.request('PATCH', '/public/v1/channels', { token, body: {} })).json).toEqual(invalidRequest);
    expect(
      (await sandbox.request('PATCH', '/public/v1/channels', { token, body: { category_id: '41' } })).json,
    ).toEqual(invalidRequest);
    expect((await sandbox.request('PATCH', '/public/v1/channels', { token, body: { category_id: 999 } })).json).toEqual(
      {
        data: 'Category not found',
        message: 'Bad request',
      },
    );
  });

  test('when PATCH comes with an app token, then 401; without channel:write, 403', async () => {
    const app = await sandbox.appToken();
    expect(
      (await sandbox.request('PATCH', '/public/v1/channels', { token: app, body: { stream_title: 'x' } })).status,
    ).toBe(401);
    const readOnly = await sandbox.linkUser('other_streamer', ['channel:read']);
    expect(
      (
        await sandbox.request('PATCH', '/public/v1/channels', {
          token: readOnly.access_token,
          body: { stream_title: 'x' },
        })
      ).status,
    ).toBe(403);
  });

  test('when the JSON body is malformed, then 400 Invalid request, not a 500', async () => {
    const answer = await sandbox.request('PATCH', '/public/v1/channels', { token, body: '{"stream_title": ' });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(invalidRequest);
  });

  test("when an unknown API path is called, then a JSON 404 in Kick's shape", async () => {
    const answer = await sandbox.request('GET', '/public/v1/nothing', { token });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ data: {}, message: 'Not found' });
  });
});

describe('GET /public/v1/public-key', () => {
  test('when asked without a token (real Kick since March 2025), with a token or with a bad one, then the same PEM public key', async () => {
    const sandbox = await startSandboxForTest();
    try {
      const answer = await sandbox.request('GET', '/public/v1/public-key', { token: await sandbox.appToken() });
      expect(answer.json).toEqual({
        data: {
          public_key: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/),
        },
        message: 'OK',
      });
      const withoutToken = await sandbox.request('GET', '/public/v1/public-key');
      expect(withoutToken.status).toBe(200);
      expect(withoutToken.json).toEqual(answer.json);
      const withBadToken = await sandbox.request('GET', '/public/v1/public-key', { token: 'not-a-token' });
      expect(withBadToken.status).toBe(200);
      expect(withBadToken.json).toEqual(answer.json);
      const calls = await sandbox.control<{ endpoint: string; status: number }[]>('GET', '/calls?endpoint=public-key');
      expect(calls.map((call) => call.status)).toEqual([200, 200, 200]);
    } finally {
      await sandbox.close();
    }
  });
});
