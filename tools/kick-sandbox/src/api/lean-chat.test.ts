import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeClock } from '@kickstand/platform/testing';
import { createSilentLogger } from '@kickstand/platform/log';
import type { ApiSend } from '../chat';
import { createNotifier } from '../notifier';
import type { TokenContext } from '../oauth/tokens';
import { createRecordLog } from '../records';
import type { CallDoc, ChatMessageDoc } from '../repository';
import { RuleError } from '../rules';
import { createLeanChatRoute } from './lean-chat';

const userToken = 'user-token';
const contexts: Record<string, TokenContext> = {
  [userToken]: { tokenType: 'user', clientId: 'c', userId: 7, scopes: ['chat:write'] },
  'read-only': { tokenType: 'user', clientId: 'c', userId: 8, scopes: ['user:read'] },
  'app-token': { tokenType: 'app', clientId: 'c', userId: null, scopes: [] },
};

/** What the Express app was handed: the request and the body the lean route had parsed, if any. */
interface Delegated {
  url: string;
  body: unknown;
  hasBody: boolean;
}

describe('the lean POST /public/v1/chat route: what it answers itself and what it leaves to Express', () => {
  const clock = createFakeClock(new Date('2026-11-26T12:00:00.000Z'));
  const sent: { userId: number; send: ApiSend }[] = [];
  const delegated: Delegated[] = [];
  const calls = createRecordLog<CallDoc>(100);
  let refusal: Error | null = null;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const lean = createLeanChatRoute({
      tokens: { authenticate: (token) => Promise.resolve(contexts[token] ?? null) },
      chat: {
        sendFromApi(userId, send) {
          if (refusal) return Promise.reject(refusal);
          sent.push({ userId, send });
          return Promise.resolve({ _id: 'message-1' } as ChatMessageDoc);
        },
      },
      repo: { calls },
      clock,
      log: createSilentLogger(),
      notifier: createNotifier(),
      viaExpress: (req: IncomingMessage & { body?: unknown }, res) => {
        delegated.push({ url: req.url ?? '', body: req.body, hasBody: 'body' in req });
        // a body the lean route read is over (req.complete); any other is read to its end first
        if (req.complete) res.writeHead(299).end('express');
        else req.resume().on('end', () => res.writeHead(299).end('express'));
      },
    });
    server = createServer((req, res) => {
      if (!lean(req, res)) res.writeHead(298).end('not the lean route');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    sent.length = 0;
    delegated.length = 0;
    refusal = null;
  });

  function send(
    given: { method?: string; path?: string; token?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...given.headers };
    if (given.token) headers.authorization = `Bearer ${given.token}`;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${base}${given.path ?? '/public/v1/chat'}`,
        { method: given.method ?? 'POST', headers },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(given.body);
    });
  }

  const line = JSON.stringify({ type: 'bot', content: 'hello', reply_to_message_id: 'm-1' });

  test('when a user token with chat:write posts a valid line, then it is sent with the arrival time and answered here', async () => {
    const answer = await send({ token: userToken, body: line });
    expect(answer).toEqual({ status: 200, body: '{"data":{"is_sent":true,"message_id":"message-1"},"message":"OK"}' });
    expect(sent).toEqual([
      {
        userId: 7,
        send: {
          type: 'bot',
          content: 'hello',
          broadcasterUserId: undefined,
          replyToMessageId: 'm-1',
          acceptedAt: new Date('2026-11-26T12:00:00.000Z'),
        },
      },
    ]);
    expect(delegated).toEqual([]);
    expect(calls.list(() => true, undefined, 1)[0]).toMatchObject({
      endpoint: 'chat',
      method: 'POST',
      path: '/public/v1/chat',
      queryJson: '{}',
      bodyJson: line,
      tokenType: 'user',
      tokenUserId: 7,
      status: 200,
      error: null,
    });
  });

  test('when a rule refuses the line, then Kick envelope is answered here and the call recorded with it', async () => {
    refusal = new RuleError('rate-limited', 'Too Many Requests');
    const answer = await send({ token: userToken, body: line });
    expect(answer).toEqual({ status: 429, body: '{"data":{},"message":"Too Many Requests"}' });
    expect(delegated).toEqual([]);
    expect(calls.list(() => true, undefined, 1)[0]).toMatchObject({
      status: 429,
      error: { data: {}, message: 'Too Many Requests' },
    });
  });

  test('when sending breaks unexpectedly, then 500 in Kick envelope, as kickErrorHandler answers', async () => {
    refusal = new Error('disk on fire');
    const answer = await send({ token: userToken, body: line });
    expect(answer).toEqual({ status: 500, body: '{"data":null,"message":"Internal server error"}' });
  });

  test('when the token is missing, unknown, an app token or without chat:write, then Express answers, nothing sent', async () => {
    for (const token of [undefined, 'unknown', 'app-token', 'read-only']) {
      expect((await send({ token, body: line })).status).toBe(299);
    }
    expect(delegated.map((request) => request.hasBody)).toEqual([false, false, false, false]);
    expect(sent).toEqual([]);
  });

  test('when the body is not plain JSON within the limit, then Express answers before it is read', async () => {
    const cases: { headers?: Record<string, string>; body?: string }[] = [
      { headers: { 'content-type': 'text/plain' } },
      { headers: { 'content-type': 'application/json; charset=latin1' } },
      { headers: { 'content-encoding': 'gzip' } },
      { headers: { 'transfer-encoding': 'chunked' } },
      { headers: { 'content-length': '0' }, body: '' },
      { body: JSON.stringify({ type: 'bot', content: 'x'.repeat(102_400) }) },
    ];
    for (const given of cases) expect((await send({ token: userToken, body: line, ...given })).status).toBe(299);
    expect(delegated.map((request) => request.hasBody)).toEqual(cases.map(() => false));
    expect(sent).toEqual([]);
  });

  test('when the body is bad JSON or not an object, then Express gets it read with no body, as body-parser leaves it', async () => {
    for (const body of ['{"type":', '"text"', ' 42']) {
      expect((await send({ token: userToken, body })).status).toBe(299);
    }
    expect(delegated.map((request) => request.hasBody)).toEqual([false, false, false]);
  });

  test("when the JSON body fails §5.1's schema, then Express gets it with the parsed body", async () => {
    expect((await send({ token: userToken, body: '\uFEFF{"type":"bot","content":""}' })).status).toBe(299);
    expect(delegated).toEqual([{ url: '/public/v1/chat', body: { type: 'bot', content: '' }, hasBody: true }]);
    expect(sent).toEqual([]);
  });

  test('when the request is another method or path, then the lean route does not take it (Express does)', async () => {
    expect((await send({ method: 'GET', token: userToken })).status).toBe(298);
    expect((await send({ path: '/public/v1/chat/', token: userToken, body: line })).status).toBe(298);
    expect((await send({ path: '/public/v1/chat?x=1', token: userToken, body: line })).status).toBe(298);
    expect((await send({ path: '/public/v1/users', token: userToken, body: line })).status).toBe(298);
  });
});
