import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { processMetrics } from '@kickstand/platform/metrics';
import { histogramTotals, listenLocally } from '@kickstand/platform/testing';
import {
  createKickClient,
  KickApiError,
  KickNotSentError,
  KickResponseError,
  KickUnreachableError,
  reasonOf,
  retryAfterMs,
  type KickClient,
  type KickClientDeps,
} from './kick-client';
import { defaultHttpTuning, type KickHttpTuning } from './options';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
  /** The client's port: the same one means the same (kept-alive) connection. */
  remotePort: number;
}

type Reply = (req: IncomingMessage, res: ServerResponse, index: number) => void;

/** A local Kick that answers each request with the next scripted reply (the last one repeats). */
interface FlakyKick {
  url: string;
  seen: Seen[];
  script(...replies: Reply[]): void;
  /** Closes the server's side of every idle kept-alive connection. */
  closeIdle(): void;
  close(): Promise<void>;
}

async function startFlakyKick(): Promise<FlakyKick> {
  const seen: Seen[] = [];
  let replies: Reply[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = seen.length;
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        remotePort: req.socket.remotePort ?? 0,
      });
      const reply = replies[Math.min(index, replies.length - 1)];
      if (reply) reply(req, res, index);
      else json(200, { data: [], message: 'OK' })(req, res, index);
    });
  });
  const listening = await listenLocally(server);
  return {
    url: listening.url,
    seen,
    script: (...next) => {
      replies = next;
      seen.length = 0;
    },
    closeIdle: () => server.closeIdleConnections(),
    close: listening.close,
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

/** Never answers within the client's timeout. */
const hang: Reply = (_req, res) => {
  setTimeout(() => res.destroyed || res.end(), 2000).unref();
};

let kick: FlakyKick;

beforeAll(async () => {
  kick = await startFlakyKick();
});

afterAll(async () => {
  await kick.close();
});

function client(tuning: Partial<KickHttpTuning> = {}): KickClient {
  return createKickClient(clientDeps(tuning));
}

function clientDeps(tuning: Partial<KickHttpTuning> = {}, agent?: Agent): KickClientDeps {
  return {
    ...(agent ? { agent } : {}),
    connection: {
      clientId: 'client-1',
      clientSecret: 'secret-1',
      redirectUri: 'http://localhost:3000/api/kick/oauth/callback',
      oauthUrl: kick.url,
      apiUrl: `${kick.url}/public/v1`,
    },
    tuning: { ...defaultHttpTuning, timeoutMs: 300, initialBackoffMs: 20, maxBackoffMs: 200, ...tuning },
    random: () => 1,
  };
}

const sentOk = json(200, { data: { is_sent: true, message_id: 'm-1' }, message: 'OK' });

const subscriptionsOk = json(200, {
  data: [
    {
      id: '01JK7Z8Q4W2M6B3T5N9R1C0XYZ',
      app_id: 'app',
      broadcaster_user_id: 4377088,
      event: 'chat.message.sent',
      version: 1,
      method: 'webhook',
      created_at: '2026-03-02T17:55:10Z',
      updated_at: '2026-03-02T17:55:10Z',
    },
    { id: '01JK7Z8Q4W2M6B3T5N9R1C0XZZ', broadcaster_user_id: 999, event: 'channel.followed', version: 1 },
  ],
  message: 'OK',
});

describe('retries of idempotent calls', () => {
  test('when Kick answers 503 then 200 to a GET, then the GET is retried and succeeds', async () => {
    kick.script(json(503, { data: null, message: 'Service unavailable' }), subscriptionsOk);

    const found = await client().listSubscriptions('app-token', '4377088');

    expect(kick.seen).toHaveLength(2);
    expect(kick.seen[0]?.url).toBe('/public/v1/events/subscriptions?broadcaster_user_id=4377088');
    expect(kick.seen[0]?.headers.authorization).toBe('Bearer app-token');
    // another channel's subscription is filtered out
    expect(found).toEqual([
      { id: '01JK7Z8Q4W2M6B3T5N9R1C0XYZ', broadcasterUserId: '4377088', event: 'chat.message.sent', version: 1 },
    ]);
  });

  test('when the backoff doubles, then each wait is twice the one before (random at its top: the full ceiling)', async () => {
    kick.script(json(500, {}), json(500, {}), subscriptionsOk);
    // the waits asked for, not the time between arrivals: a loaded machine delays arrivals unevenly
    const waits: number[] = [];
    const recordingClient = createKickClient({
      ...clientDeps({ maxAttempts: 3, initialBackoffMs: 60 }),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });

    await recordingClient.listSubscriptions('t', '4377088');

    expect(waits).toEqual([60, 120]);
    expect(kick.seen).toHaveLength(3);
  });

  test('when Kick answers 429 with Retry-After: 1, then the retry waits a second', async () => {
    kick.script(json(429, { data: {}, message: 'Too many requests' }, { 'retry-after': '1' }), subscriptionsOk);
    const waits: number[] = [];
    const recordingClient = createKickClient({
      ...clientDeps(),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });

    await recordingClient.listSubscriptions('t', '4377088');

    expect(kick.seen).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  test('when Retry-After is longer than the client will wait, then the call fails at once', async () => {
    kick.script(json(429, { data: {}, message: 'Too many requests' }, { 'retry-after': '3600' }));

    const call = client({ maxRetryAfterMs: 500 }).listSubscriptions('t', '1');

    await expect(call).rejects.toMatchObject({ name: 'KickApiError', status: 429, reason: 'Too many requests' });
    expect(kick.seen).toHaveLength(1);
  });

  test("when Kick keeps failing, then the call gives up after maxAttempts with Kick's reason", async () => {
    kick.script(json(500, { data: null, message: 'Internal server error' }));

    await expect(client({ maxAttempts: 3 }).unsubscribe('t', ['A'])).rejects.toMatchObject({
      status: 500,
      reason: 'Internal server error',
    });
    expect(kick.seen.map((seen) => seen.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
  });

  test('when Kick does not answer in time, then the call times out, is retried, and finally fails as unreachable', async () => {
    kick.script(hang);

    const started = Date.now();
    const call = client({ timeoutMs: 150, maxAttempts: 2 }).currentUser('user-token');

    await expect(call).rejects.toBeInstanceOf(KickUnreachableError);
    await expect(call).rejects.toThrow(/timed out/);
    expect(kick.seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test("when the public key is fetched, then no token is sent and Kick's key is returned", async () => {
    kick.script(json(200, { data: { public_key: 'PEM' }, message: 'OK' }));

    await expect(client().publicKey()).resolves.toBe('PEM');
    expect(kick.seen).toHaveLength(1);
    expect(kick.seen[0]?.url).toBe('/public/v1/public-key');
    expect(kick.seen[0]?.headers.authorization).toBeUndefined();
  });

  test('when a GET times out once, then the retry succeeds', async () => {
    kick.script(hang, json(200, { data: { public_key: 'PEM' }, message: 'OK' }));

    await expect(client({ timeoutMs: 150 }).publicKey()).resolves.toBe('PEM');
    expect(kick.seen).toHaveLength(2);
  });

  test('when nothing listens, then the call fails as unreachable', async () => {
    const nowhere = createKickClient({
      connection: {
        clientId: 'c',
        clientSecret: 's',
        redirectUri: 'http://x/cb',
        oauthUrl: 'http://127.0.0.1:1',
        apiUrl: 'http://127.0.0.1:1/public/v1',
      },
      tuning: { ...defaultHttpTuning, maxAttempts: 2, initialBackoffMs: 1 },
    });
    await expect(nowhere.currentUser('t')).rejects.toBeInstanceOf(KickUnreachableError);
  });

  test('when a 4xx comes back, then it is not retried', async () => {
    kick.script(json(401, { data: {}, message: 'Unauthorized' }));

    await expect(client().currentUser('expired')).rejects.toMatchObject({ status: 401, reason: 'Unauthorized' });
    expect(kick.seen).toHaveLength(1);
  });

  test('when Kick answers 408 (request timeout) to a GET, then the GET is retried and succeeds', async () => {
    kick.script(json(408, { data: null, message: 'Request Timeout' }), subscriptionsOk);

    const found = await client().listSubscriptions('t', '4377088');

    expect(kick.seen).toHaveLength(2);
    expect(found.map((item) => item.id)).toEqual(['01JK7Z8Q4W2M6B3T5N9R1C0XYZ']);
  });

  test('when Kick answers 404 with a Retry-After, then it is not retried', async () => {
    kick.script(json(404, { data: {}, message: 'Not found' }, { 'retry-after': '0' }), subscriptionsOk);

    await expect(client().listSubscriptions('t', '4377088')).rejects.toMatchObject({
      status: 404,
      reason: 'Not found',
    });
    expect(kick.seen).toHaveLength(1);
  });
});

describe('calls that are never retried', () => {
  test('when POST /chat gets a 500, then it is sent exactly once', async () => {
    kick.script(json(500, { data: null, message: 'Internal server error' }));

    await expect(client().sendChat('user-token', { type: 'bot', content: 'hi' })).rejects.toBeInstanceOf(KickApiError);

    expect(kick.seen).toHaveLength(1);
    expect(JSON.parse(kick.seen[0]?.body ?? '')).toEqual({ type: 'bot', content: 'hi' });
  });

  test('when POST /chat times out, then it is not sent again', async () => {
    kick.script(hang);

    await expect(
      client({ timeoutMs: 150 }).sendChat('t', { type: 'user', broadcasterUserId: '4377088', content: 'x' }),
    ).rejects.toBeInstanceOf(KickUnreachableError);
    expect(kick.seen).toHaveLength(1);
  });

  test('when POST /events/subscriptions gets a 503, then it is not sent again (a retry could subscribe twice)', async () => {
    kick.script(json(503, {}));

    await expect(client().subscribe('t', '4377088', ['chat.message.sent'])).rejects.toMatchObject({ status: 503 });
    expect(kick.seen).toHaveLength(1);
  });
});

describe('requests and answers', () => {
  test("when a chat line is sent as the user with a reply, then the body is Kick's, the id a number", async () => {
    kick.script(
      json(200, { data: { is_sent: true, message_id: '7d0f5c2e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' }, message: 'OK' }),
    );

    const sent = await client().sendChat('t', {
      type: 'user',
      broadcasterUserId: '4377088',
      content: 'Welcome in!',
      replyToMessageId: '3f2b8a10-5c6e-4d7f-9a01-7b2c3d4e5f60',
    });

    expect(sent).toEqual({ isSent: true, messageId: '7d0f5c2e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' });
    expect(JSON.parse(kick.seen[0]?.body ?? '')).toEqual({
      type: 'user',
      broadcaster_user_id: 4377088,
      content: 'Welcome in!',
      reply_to_message_id: '3f2b8a10-5c6e-4d7f-9a01-7b2c3d4e5f60',
    });
  });

  test('when a code is exchanged, then the form carries the secret, the verifier and the redirect URI', async () => {
    kick.script(
      json(200, {
        access_token: 'at',
        token_type: 'Bearer',
        refresh_token: 'rt',
        expires_in: 7200,
        scope: 'user:read chat:write',
      }),
    );

    const tokens = await client().exchangeCode({ code: 'the-code', codeVerifier: 'the-verifier' });

    expect(tokens).toEqual({
      accessToken: 'at',
      refreshToken: 'rt',
      expiresInSeconds: 7200,
      scopes: ['user:read', 'chat:write'],
    });
    expect(kick.seen[0]?.url).toBe('/oauth/token');
    expect(kick.seen[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(kick.seen[0]?.body))).toEqual({
      grant_type: 'authorization_code',
      client_id: 'client-1',
      client_secret: 'secret-1',
      code: 'the-code',
      redirect_uri: 'http://localhost:3000/api/kick/oauth/callback',
      code_verifier: 'the-verifier',
    });
  });

  test('when a refresh is refused RFC 6749 style, then the error carries invalid_grant and the description', async () => {
    kick.script(json(400, { error: 'invalid_grant', error_description: 'The refresh token is invalid.' }));

    await expect(client().refresh('old')).rejects.toMatchObject({
      status: 400,
      oauthError: 'invalid_grant',
      reason: 'The refresh token is invalid.',
    });
  });

  test('when a token is revoked, then token and token_hint_type go in the query of a form POST', async () => {
    kick.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
    });

    await client().revoke('tok en', 'refresh_token');

    expect(kick.seen[0]?.method).toBe('POST');
    expect(kick.seen[0]?.url).toBe('/oauth/revoke?token=tok+en&token_hint_type=refresh_token');
    expect(kick.seen[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  test('when Kick answers 200 with an unexpected shape, then a KickResponseError says where', async () => {
    kick.script(json(200, { data: [{ user_id: 'not-a-number', name: 'x' }], message: 'OK' }));

    await expect(client().currentUser('t')).rejects.toBeInstanceOf(KickResponseError);
  });

  test('when the redirect URI uses 127.0.0.1, then a throw-away parameter comes before redirect_uri', () => {
    const local = createKickClient({
      connection: {
        clientId: 'c',
        clientSecret: 's',
        redirectUri: 'http://127.0.0.1:3000/cb',
        oauthUrl: 'https://id.kick.com',
        apiUrl: 'x',
      },
      tuning: defaultHttpTuning,
    });
    const url = local.authorizeUrl({ state: 's', codeChallenge: 'c', scopes: ['user:read', 'chat:write'] });
    expect(url).toMatch(/^https:\/\/id\.kick\.com\/oauth\/authorize\?redirect=127\.0\.0\.1&client_id=c&/);
    expect(new URL(url).searchParams.get('redirect_uri')).toBe('http://127.0.0.1:3000/cb');
    expect(new URL(url).searchParams.get('scope')).toBe('user:read chat:write');
  });
});

describe('reasonOf and retryAfterMs', () => {
  test.each([
    [
      'a REST reason in data',
      400,
      '{"data":"event subscription limit reached","message":"Bad request"}',
      'event subscription limit reached',
    ],
    ['a REST message', 401, '{"data":{},"message":"Unauthorized"}', 'Unauthorized'],
    ['a null data', 500, '{"data":null,"message":"Internal server error"}', 'Internal server error'],
    ['the OAuth short form', 400, '{"error":"Invalid request"}', 'Invalid request'],
    ['plain text', 403, 'Request blocked by security policy', 'Request blocked by security policy'],
    ['an HTML page', 403, '<html><body>blocked</body></html>', 'HTTP 403'],
    ['nothing', 502, '', 'HTTP 502'],
  ])("when the body is %s, then the reason is Kick's own words", (_name, status, text, reason) => {
    expect(reasonOf(status, text).reason).toBe(reason);
  });

  test('when Retry-After is seconds or a date, then it becomes milliseconds', () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:05 GMT', 1000)).toBe(4000);
    expect(retryAfterMs(null, 0)).toBeUndefined();
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });
});

describe('the connection to Kick', () => {
  let agent: Agent;

  beforeEach(() => {
    agent = new Agent();
  });

  afterEach(async () => {
    await agent.close();
  });

  /** Until the client has seen the server close its idle connection (a pool counts connections, a client says true). */
  async function untilDisconnected(): Promise<void> {
    const connected = () => Object.values(agent.stats).reduce((sum, stats) => sum + Number(stats.connected), 0);
    while (connected() > 0) await new Promise((resolve) => setImmediate(resolve));
  }

  test('when replies are posted one after another, then their connections are kept alive and used again', async () => {
    kick.script(sentOk);
    const kickClient = createKickClient(clientDeps({}, agent));

    for (const content of ['one', 'two', 'three', 'four']) await kickClient.sendChat('t', { type: 'bot', content });

    expect(kick.seen).toHaveLength(4);
    // undici frees a connection just after the answer's end: the next one may open a second
    expect(new Set(kick.seen.map((seen) => seen.remotePort)).size).toBeLessThanOrEqual(2);
    expect(kick.seen[0]?.headers.connection).toBe('keep-alive');
  });

  test('when Kick closes an idle kept-alive connection, then the next reply goes out on a new one', async () => {
    kick.script(sentOk);
    const kickClient = createKickClient(clientDeps({}, agent));
    await kickClient.sendChat('t', { type: 'bot', content: 'one' });

    kick.closeIdle();
    await untilDisconnected();

    await expect(kickClient.sendChat('t', { type: 'bot', content: 'two' })).resolves.toEqual({
      isSent: true,
      messageId: 'm-1',
    });
    expect(kick.seen).toHaveLength(2);
    expect(kick.seen[1]?.remotePort).not.toBe(kick.seen[0]?.remotePort);
  });

  test('when Kick answers with Connection: close, then the next reply opens a new connection', async () => {
    kick.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ data: { is_sent: true, message_id: 'm-0' }, message: 'OK' }));
    }, sentOk);
    const kickClient = createKickClient(clientDeps({}, agent));

    await expect(kickClient.sendChat('t', { type: 'bot', content: 'one' })).resolves.toMatchObject({
      messageId: 'm-0',
    });
    await expect(kickClient.sendChat('t', { type: 'bot', content: 'two' })).resolves.toMatchObject({
      messageId: 'm-1',
    });
    expect(kick.seen[1]?.remotePort).not.toBe(kick.seen[0]?.remotePort);
  });

  test('when a reply times out, then the next one is posted and answered', async () => {
    kick.script(hang, sentOk);
    const kickClient = createKickClient(clientDeps({ timeoutMs: 150 }, agent));

    await expect(kickClient.sendChat('t', { type: 'bot', content: 'one' })).rejects.toThrow(
      /^POST http:\/\/127\.0\.0\.1:\d+\/public\/v1\/chat failed: timed out$/,
    );
    await expect(kickClient.sendChat('t', { type: 'bot', content: 'two' })).resolves.toEqual({
      isSent: true,
      messageId: 'm-1',
    });
    expect(kick.seen).toHaveLength(2);
  });

  test('when more replies are posted at once than the connection cap, then the rest wait for a free connection', async () => {
    const held: ServerResponse[] = [];
    kick.script((req, res, index) => {
      if (index >= 3) return sentOk(req, res, index);
      // the first three are answered once all three are in: with no cap the other five would have
      // opened connections of their own by then
      held.push(res);
      if (held.length === 3) for (const waiting of held) sentOk(req, waiting, index);
    });
    // the default agent (none given): one per cap, shared by the process
    const kickClient = createKickClient(clientDeps({ maxConnections: 3 }));

    const sends = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((content) =>
      kickClient.sendChat('t', { type: 'bot', content }),
    );

    await expect(Promise.all(sends)).resolves.toHaveLength(8);
    expect(kick.seen).toHaveLength(8);
    expect(new Set(kick.seen.map((seen) => seen.remotePort)).size).toBeLessThanOrEqual(3);
  });

  /** Answers after `ms`, so a second request on a cap of one waits that long for the connection. */
  const sentAfter =
    (ms: number): Reply =>
    (req, res, index) => {
      setTimeout(() => sentOk(req, res, index), ms).unref();
    };

  test('when a reply waits for a free connection longer than its timeout, then the wait does not count and it is answered', async () => {
    kick.script(sentAfter(200));
    const kickClient = createKickClient(clientDeps({ maxConnections: 1, timeoutMs: 300 }));

    // the second waits ~200 ms for the connection, then ~200 ms for its answer: 400 ms in all
    const sends = ['one', 'two'].map((content) => kickClient.sendChat('t', { type: 'bot', content }));

    await expect(Promise.all(sends)).resolves.toEqual([
      { isSent: true, messageId: 'm-1' },
      { isSent: true, messageId: 'm-1' },
    ]);
    expect(kick.seen).toHaveLength(2);
  });

  test("when a reply waits for a free connection, then the wait is counted as kick-queue and not in kick-post, Kick's answer alone", async () => {
    const stage = (name: string) =>
      histogramTotals(processMetrics().registry, 'kickstand_reply_stage_seconds', {
        service: 'kick-link',
        stage: name,
      });
    const before = { queue: await stage('kick-queue'), post: await stage('kick-post') };
    kick.script(sentAfter(400), sentOk);
    const kickClient = createKickClient(clientDeps({ maxConnections: 1, timeoutMs: 2000 }));

    // the first is answered after 400 ms; the second waits for its connection as long, then is answered at once
    await Promise.all(['one', 'two'].map((content) => kickClient.sendChat('t', { type: 'bot', content })));

    const queue = await stage('kick-queue');
    const post = await stage('kick-post');
    expect(queue.count - before.queue.count).toBe(2);
    expect(post.count - before.post.count).toBe(2);
    expect(queue.sum - before.queue.sum).toBeGreaterThanOrEqual(0.35);
    expect(post.sum - before.post.sum).toBeGreaterThanOrEqual(0.35);
    // with the second's wait counted in, the two would sum to 0.8 s at least
    expect(post.sum - before.post.sum).toBeLessThan(0.75);
  });

  test('when a reply waits for a free connection longer than its caller allows, then it fails as not sent and Kick never sees it', async () => {
    kick.script(sentAfter(200));
    const kickClient = createKickClient(clientDeps({ maxConnections: 1, timeoutMs: 1000 }));

    const first = kickClient.sendChat('t', { type: 'bot', content: 'one' });
    const second = kickClient.sendChat('t', { type: 'bot', content: 'two' }, { maxQueueWaitMs: 50 });

    await expect(second).rejects.toThrow(KickNotSentError);
    await expect(second).rejects.toThrow(
      /^POST http:\/\/127\.0\.0\.1:\d+\/public\/v1\/chat was not sent: it waited \d+ ms for a free connection to Kick$/,
    );
    await expect(first).resolves.toEqual({ isSent: true, messageId: 'm-1' });
    expect(kick.seen.map((seen) => JSON.parse(seen.body) as unknown)).toEqual([{ type: 'bot', content: 'one' }]);
  });

  test('when a reply is posted, then it carries the JSON accept and content types, the bearer token and the user agent', async () => {
    kick.script(sentOk);

    await client().sendChat('user-token', { type: 'bot', content: 'hi' });

    const headers = kick.seen[0]?.headers;
    expect(headers?.accept).toBe('application/json');
    expect(headers?.['content-type']).toBe('application/json');
    expect(headers?.authorization).toBe('Bearer user-token');
    expect(headers?.['user-agent']).toBe('node');
    expect(headers?.['content-length']).toBe(String(Buffer.byteLength(kick.seen[0]?.body ?? '')));
  });

  test('when a token is revoked, then the form POST has an empty body of length 0', async () => {
    kick.script((_req, res) => res.end('OK'));

    await client().revoke('tok', 'access_token');

    expect(kick.seen[0]?.headers['content-length']).toBe('0');
    expect(kick.seen[0]?.body).toBe('');
  });

  test('when a ban is lifted, then the DELETE carries its JSON body with the ids as numbers', async () => {
    kick.script(json(200, { data: {}, message: 'OK' }));

    await client().unban('t', '4377088', '123');

    expect(kick.seen[0]?.method).toBe('DELETE');
    expect(kick.seen[0]?.url).toBe('/public/v1/moderation/bans');
    expect(kick.seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(kick.seen[0]?.body ?? '')).toEqual({ broadcaster_user_id: 4377088, user_id: 123 });
  });

  test('when live channels are asked for, then the ids go in the query and the answer is read per channel', async () => {
    kick.script(
      json(200, {
        data: [
          { broadcaster_user_id: 1, stream: { is_live: true } },
          { broadcaster_user_id: 2, stream: {} },
        ],
        message: 'OK',
      }),
    );

    const live = await client().liveChannels('t', ['1', '2']);

    expect(kick.seen[0]?.url).toBe('/public/v1/channels?broadcaster_user_id=1&broadcaster_user_id=2');
    expect([...live]).toEqual([
      ['1', true],
      ['2', false],
    ]);
  });

  test('when Kick answers with a redirect, then it is not followed and the call fails with its status', async () => {
    kick.script((_req, res) => {
      res.writeHead(302, { location: '/elsewhere', 'content-type': 'text/plain' });
      res.end('Found');
    });

    await expect(client().sendChat('t', { type: 'bot', content: 'hi' })).rejects.toMatchObject({
      name: 'KickApiError',
      status: 302,
      reason: 'Found',
    });
    expect(kick.seen.map((seen) => seen.url)).toEqual(['/public/v1/chat']);
  });

  test('when Kick answers 200 with an HTML page, then the call fails as an answer that is not JSON', async () => {
    kick.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Just a moment…</html>');
    });

    await expect(client().sendChat('t', { type: 'bot', content: 'hi' })).rejects.toThrow(
      new KickResponseError("POST /chat: Kick's answer is not JSON"),
    );
  });

  test('when the answer is cut off mid-body, then the call fails as unreachable and is not sent again', async () => {
    kick.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data":');
      setImmediate(() => res.destroy());
    });

    const call = client().sendChat('t', { type: 'bot', content: 'hi' });

    await expect(call).rejects.toBeInstanceOf(KickUnreachableError);
    await expect(call).rejects.toThrow(/: the answer was cut off$/);
    expect(kick.seen).toHaveLength(1);
  });

  test('when an edge compresses the answer anyway, then it is decoded', async () => {
    kick.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ data: { is_sent: true, message_id: 'm-gz' }, message: 'OK' })));
    });

    await expect(client().sendChat('t', { type: 'bot', content: 'hi' })).resolves.toEqual({
      isSent: true,
      messageId: 'm-gz',
    });
    expect(kick.seen[0]?.headers['accept-encoding']).toBeUndefined();
  });

  test('when the API URL is not a URL, then the call fails as unreachable', async () => {
    const broken = createKickClient({
      ...clientDeps(),
      connection: { ...clientDeps().connection, apiUrl: 'not a url' },
    });

    const call = broken.sendChat('t', { type: 'bot', content: 'hi' });

    await expect(call).rejects.toBeInstanceOf(KickUnreachableError);
    await expect(call).rejects.toThrow('not a url is not a URL');
  });
});
