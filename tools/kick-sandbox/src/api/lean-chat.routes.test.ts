import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

/** One answer as it came off the wire: status line, headers in order with their casing, body. */
interface RawAnswer {
  status: number;
  statusMessage: string;
  headers: [string, string][];
  body: string;
}

interface RawRequest {
  path?: string;
  token?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

function rawPost(base: string, given: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...given.headers };
    if (given.token !== undefined) headers.authorization = `Bearer ${given.token}`;
    const req = httpRequest(`${base}${given.path ?? '/public/v1/chat'}`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headerPairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          headerPairs.push([res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '']);
        }
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: headerPairs,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.on('error', reject);
    req.end(given.body);
  });
}

const etagOf = (body: string) => {
  const bytes = Buffer.from(body);
  return `W/"${bytes.length.toString(16)}-${createHash('sha1').update(bytes).digest('base64').substring(0, 27)}"`;
};

/**
 * What must be the same between two answers: everything but the Date, the request id (a new UUID
 * each) and the message id of a posted line (a new UUID each: the ETag follows the body, so it is
 * checked against each answer's own body).
 */
function comparable(answer: RawAnswer): unknown {
  const body = answer.body.replace(/"message_id":"[0-9a-f-]{36}"/, '"message_id":"<uuid>"');
  return {
    status: answer.status,
    statusMessage: answer.statusMessage,
    body,
    headers: answer.headers.map(([name, value]) => {
      if (name === 'Date' || name === 'x-request-id') return [name, '<varies>'];
      if (name === 'ETag') return [name, value === etagOf(answer.body) ? '<etag of the body>' : value];
      return [name, value];
    }),
  };
}

interface CallView {
  seq: number;
  id: string;
  at: string;
}

describe('POST /public/v1/chat without Express (lean-chat.ts) against the Express route', () => {
  let sandbox: SandboxHarness;
  let streamer: number;
  let botToken: string;
  let streamerToken: string;

  beforeAll(async () => {
    sandbox = await startSandboxForTest({ options: { chatDailyQuota: null } });
    const streamerTokens = await sandbox.linkUser('sandbox_streamer', ['chat:write', 'events:subscribe']);
    streamerToken = streamerTokens.access_token;
    botToken = (await sandbox.linkUser('sandbox_bot', ['chat:write'])).access_token;
    streamer = (await sandbox.control<{ userId: number }>('GET', '/users/sandbox_streamer')).userId;
    await sandbox.request('POST', '/public/v1/events/subscriptions', {
      token: streamerToken,
      body: { method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] },
    });
  });

  afterAll(() => sandbox.close());

  /** The newest recorded call, without what differs between any two calls. */
  async function lastCall(): Promise<unknown> {
    const calls = await sandbox.control<CallView[]>('GET', '/calls?limit=1000');
    const last = calls.at(-1);
    if (!last) throw new Error('no call recorded');
    const { seq: _seq, id: _id, at: _at, ...rest } = last;
    return rest;
  }

  /** The same request to both doors, with `before` run before each; both answers and call records must match. */
  async function expectSameAnswers(given: RawRequest, before: () => Promise<unknown> = async () => undefined) {
    await before();
    const viaExpress = await rawPost(sandbox.expressUrl, given);
    const expressCall = await lastCall();
    await before();
    const lean = await rawPost(sandbox.url, given);
    const leanCall = await lastCall();
    expect(comparable(lean)).toEqual(comparable(viaExpress));
    expect(leanCall).toEqual(expressCall);
    return lean;
  }

  const post = (
    token: string | undefined,
    body: unknown,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ): RawRequest => ({
    token,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

  test('when a bot line is posted, then both answer 200 with the same headers (helmet, ETag) and body', async () => {
    const answer = await expectSameAnswers(post(botToken, { type: 'bot', content: 'hello from the bot' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.map(([name]) => name)).toEqual([
      'Content-Security-Policy',
      'Cross-Origin-Opener-Policy',
      'Cross-Origin-Resource-Policy',
      'Origin-Agent-Cluster',
      'Referrer-Policy',
      'Strict-Transport-Security',
      'X-Content-Type-Options',
      'X-DNS-Prefetch-Control',
      'X-Download-Options',
      'X-Frame-Options',
      'X-Permitted-Cross-Domain-Policies',
      'X-XSS-Protection',
      'x-request-id',
      'Content-Type',
      'Content-Length',
      'ETag',
      'Date',
      'Connection',
      'Keep-Alive',
    ]);
    expect(JSON.parse(answer.body)).toEqual({ data: { is_sent: true, message_id: expect.any(String) }, message: 'OK' });
  });

  test('when a user line, a charset, a byte-order mark or a given request id come, then both answer alike', async () => {
    await expectSameAnswers(post(botToken, { type: 'user', broadcaster_user_id: streamer, content: 'a user line' }));
    await expectSameAnswers(
      post(botToken, { type: 'bot', content: 'x' }, { 'content-type': 'Application/JSON; charset=UTF-8' }),
    );
    await expectSameAnswers(post(botToken, `\uFEFF ${JSON.stringify({ type: 'bot', content: 'bom' })}`));
    const withId = await expectSameAnswers({
      ...post(botToken, { type: 'bot', content: 'x' }),
      headers: { 'content-type': 'application/json', 'x-request-id': 'product-42' },
    });
    expect(withId.headers).toContainEqual(['x-request-id', 'product-42']);
  });

  test('when the token is missing, unknown, an app token or without chat:write, then the same 401/403', async () => {
    const line = { type: 'bot', content: 'x' };
    expect((await expectSameAnswers(post(undefined, line))).status).toBe(401);
    expect((await expectSameAnswers(post('not-a-token', line))).status).toBe(401);
    expect((await expectSameAnswers(post(await sandbox.appToken(), line))).status).toBe(401);
    const readOnly = (await sandbox.linkUser('viewer_carol', ['user:read'])).access_token;
    expect((await expectSameAnswers(post(readOnly, line))).status).toBe(403);
  });

  test('when the token was revoked or has expired, then both answer 401 at once', async () => {
    const line = { type: 'bot', content: 'x' };
    const revoked = (await sandbox.linkUser('viewer_rex', ['chat:write'])).access_token;
    expect((await rawPost(sandbox.url, post(revoked, line))).status).toBe(200);
    await sandbox.control('POST', '/tokens/invalidate', { token: revoked });
    expect((await expectSameAnswers(post(revoked, line))).status).toBe(401);
    const expired = (await sandbox.linkUser('viewer_exa', ['chat:write'])).access_token;
    expect((await rawPost(sandbox.url, post(expired, line))).status).toBe(200);
    await sandbox.control('POST', '/tokens/expire', { token: expired });
    expect((await expectSameAnswers(post(expired, line))).status).toBe(401);
  });

  test('when the body is bad JSON, not an object, empty, refused by the schema or of another type, then the same 400', async () => {
    for (const body of ['{"type":"bot",', '"a string"', '42', '', '[]', '{}']) {
      expect((await expectSameAnswers(post(botToken, body))).status).toBe(400);
    }
    for (const line of [
      { type: 'bot', content: '' },
      { type: 'bot', content: 'x'.repeat(501) },
      { type: 'user', content: 'no broadcaster' },
      { type: 'user', broadcaster_user_id: '123', content: 'id as a string' },
      { type: 'bot', content: 'x', reply_to_message_id: '' },
    ]) {
      expect((await expectSameAnswers(post(botToken, line))).status).toBe(400);
    }
    const asText = post(botToken, JSON.stringify({ type: 'bot', content: 'x' }), { 'content-type': 'text/plain' });
    expect((await expectSameAnswers(asText)).status).toBe(400);
  });

  test('when the body is too large, gzipped, chunked or has a query string, then both answer alike', async () => {
    const large = post(botToken, JSON.stringify({ type: 'bot', content: 'x'.repeat(110_000) }));
    expect((await expectSameAnswers(large)).status).toBe(413);
    const zipped = gzipSync(JSON.stringify({ type: 'bot', content: 'zipped' }));
    const gzipped = {
      token: botToken,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: zipped,
    };
    expect((await expectSameAnswers(gzipped)).status).toBe(200);
    const chunked = {
      ...post(botToken, { type: 'bot', content: 'chunked' }),
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    };
    expect((await expectSameAnswers(chunked)).status).toBe(200);
    expect(
      (await expectSameAnswers({ ...post(botToken, { type: 'bot', content: 'q' }), path: '/public/v1/chat?x=1' }))
        .status,
    ).toBe(200);
  });

  test("when §5.1's rules refuse the line, then the same Kick envelope: bot off, unknown channel, ban, reply target, quota", async () => {
    await expectSameAnswers(post(botToken, { type: 'bot', content: 'x' }), () =>
      sandbox.control('PATCH', '/app', { isBotEnabled: false }),
    );
    await sandbox.control('PATCH', '/app', { isBotEnabled: true });
    const unknown = await expectSameAnswers(
      post(botToken, { type: 'user', broadcaster_user_id: 12345678, content: 'x' }),
    );
    expect(JSON.parse(unknown.body)).toEqual({ data: 'Channel not found', message: 'Bad request' });
    const reply = await expectSameAnswers(
      post(botToken, { type: 'bot', content: 'x', reply_to_message_id: 'no-such-message' }),
    );
    expect(JSON.parse(reply.body)).toEqual({ data: 'Message not found', message: 'Bad request' });
    const banned = (await sandbox.linkUser('viewer_bob', ['chat:write'])).access_token;
    await sandbox.control('POST', '/events/ban', { broadcaster: streamer, user: 'viewer_bob' });
    expect(
      (await expectSameAnswers(post(banned, { type: 'user', broadcaster_user_id: streamer, content: 'x' }))).status,
    ).toBe(400);
    const quota = await expectSameAnswers(post(botToken, { type: 'bot', content: 'x' }), () =>
      sandbox.control('PATCH', '/app', { chatDailyQuota: 0 }),
    );
    expect(quota.status).toBe(400);
    await sandbox.control('PATCH', '/app', { chatDailyQuota: null });
  });

  test("when real Kick's switches are on, then the same 500, 429, is_sent false and refused reply", async () => {
    const line = post(botToken, { type: 'bot', content: 'x' });
    expect((await expectSameAnswers(line, () => sandbox.realKick({ botChat: 'server-error' }))).status).toBe(500);
    expect((await expectSameAnswers(line, () => sandbox.realKick({ botChat: 'channel-not-found' }))).status).toBe(400);
    await sandbox.documentedKick();
    expect((await expectSameAnswers(line, () => sandbox.realKick({ chatRateLimitNext: 1 }))).status).toBe(429);
    const notSent = await expectSameAnswers(line, () => sandbox.realKick({ chatNotSentNext: 1 }));
    expect(JSON.parse(notSent.body)).toEqual({ data: { is_sent: false, message_id: '' }, message: 'OK' });
    const refused = await expectSameAnswers(
      post(botToken, { type: 'bot', content: 'x', reply_to_message_id: 'any' }),
      () => sandbox.realKick({ replyTargets: 'refused' }),
    );
    expect(JSON.parse(refused.body)).toEqual({ data: 'Reply target not found', message: 'Bad request' });
    await sandbox.documentedKick();
  });

  test('when a line is posted through the lean route, then it is listed and echoed as chat.message.sent', async () => {
    const answer = await rawPost(sandbox.url, post(streamerToken, { type: 'bot', content: 'echo me' }));
    const messageId = (JSON.parse(answer.body) as { data: { message_id: string } }).data.message_id;
    const lines = await sandbox.control<{ messageId: string; content: string }[]>('GET', '/chat?type=bot&limit=1000');
    expect(lines.find((line) => line.messageId === messageId)?.content).toBe('echo me');
    const [echo] = await sandbox.receiver.waitFor(
      1,
      (delivery) => (delivery.body as { message_id?: string }).message_id === messageId,
    );
    expect(echo?.body).toMatchObject({ message_id: messageId, content: 'echo me' });
  });
});
