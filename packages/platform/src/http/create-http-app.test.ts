import { gzipSync } from 'node:zlib';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { z } from 'zod';
import { conflict, unavailable } from '../errors';
import { captureLog } from '../testing';
import { createHttpApp } from './create-http-app';
import { processStartedAt, type ReadinessCheck } from './health';
import { parseBody, parseQuery } from './parse';

const greetingSchema = z.object({
  name: z.string({ error: 'Name is required' }).min(3, 'Name must be at least 3 characters'),
  age: z.number().int().optional(),
});

function testRoutes(): Router {
  const router = Router();
  router.post('/greetings', (req, res) => {
    const body = parseBody(greetingSchema, req);
    res.status(201).json({ success: true, data: { greeting: `hi ${body.name}`, rawBytes: req.rawBody?.length } });
  });
  router.get('/search', (req, res) => {
    const query = parseQuery(z.object({ page: z.coerce.number().int().min(1, 'page must be 1 or more') }), req);
    res.json({ success: true, data: query });
  });
  router.post('/taken', () => {
    throw conflict('Username is already taken');
  });
  router.get('/api/admin/users/:id', (req, res) => {
    res.json({ success: true, data: { id: req.params.id } });
  });
  router.post('/busy', () => {
    throw unavailable('bot-write-conflict', 'The bot is busy. Try again.', 2);
  });
  router.get('/boom', async () => {
    throw new Error('database password is hunter2 at /srv/app.js:12');
  });
  return router;
}

interface Started {
  url: string;
  logLines(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

async function start(readiness: ReadinessCheck[] = []): Promise<Started> {
  const { log, records } = captureLog('info');
  const app = createHttpApp({
    service: 'test',
    log,
    routes: [testRoutes()],
    readiness,
    http: { bodyLimit: '1kb', trustProxy: 'loopback' },
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logLines: records,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('createHttpApp', () => {
  let app: Started;
  beforeAll(async () => {
    app = await start([
      { name: 'store', check: async () => undefined },
      { name: 'bus', check: async () => undefined },
    ]);
  });
  afterAll(() => app.close());

  test('when any answer goes out, then its content security policy lets images come only from here, data: and Kick’s emote CDN', async () => {
    const response = await fetch(`${app.url}/greetings`, json({ name: 'alice' }));
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy.split(';')).toContain("img-src 'self' data: https://files.kick.com");
    expect(policy).toContain("script-src 'self'");
  });

  test('when the body is valid, then the route answers with the parsed value and the raw bytes are kept', async () => {
    const response = await fetch(`${app.url}/greetings`, json({ name: 'alice' }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ success: true, data: { greeting: 'hi alice', rawBytes: 16 } });
  });

  test('when the body fails validation, then 400 with the first message and every detail', async () => {
    const response = await fetch(`${app.url}/greetings`, json({ name: 'al', age: 'old' }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({
      success: false,
      error: 'Name must be at least 3 characters',
      details: [
        { path: 'name', message: 'Name must be at least 3 characters' },
        { path: 'age', message: expect.any(String) },
      ],
    });
  });

  test('when a required field is missing, then its own message is the error', async () => {
    const response = await fetch(`${app.url}/greetings`, json({}));
    expect(await response.json()).toMatchObject({ success: false, error: 'Name is required' });
  });

  test('when the query string is invalid, then 400 names the problem', async () => {
    const response = await fetch(`${app.url}/search?page=0`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: 'page must be 1 or more' });
  });

  test('when the JSON is malformed, then 400 and no stack', async () => {
    const response = await fetch(`${app.url}/greetings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, error: 'Request body is not valid JSON' });
  });

  test('when the body is over the limit, then 413', async () => {
    const response = await fetch(`${app.url}/greetings`, json({ name: 'x'.repeat(2048) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, error: 'Request body is too large' });
  });

  test('when the body says gzip but is not, then 400 (not 500) and nothing of zlib is shown', async () => {
    const response = await fetch(`${app.url}/greetings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{"name":"alice"}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, error: 'Request body could not be decompressed' });
  });

  test('when the body has an unknown Content-Encoding, then 415', async () => {
    const response = await fetch(`${app.url}/greetings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'x-made-up' },
      body: '{"name":"alice"}',
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ success: false, error: 'Unsupported request body encoding' });
  });

  test('when the body has an unsupported charset, then 415', async () => {
    const response = await fetch(`${app.url}/greetings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=klingon' },
      body: '{"name":"alice"}',
    });
    expect(response.status).toBe(415);
  });

  test('when a gzip body unpacks over the limit, then 413', async () => {
    const response = await fetch(`${app.url}/greetings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ name: 'x'.repeat(4096) })),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, error: 'Request body is too large' });
  });

  test('when a gzip body is valid, then it is read', async () => {
    const response = await fetch(`${app.url}/greetings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ name: 'alice' })),
    });
    expect(response.status).toBe(201);
  });

  test('when a path parameter does not percent-decode (%ZZ), then 400, not 500', async () => {
    const response = await fetch(`${app.url}/api/admin/users/%ZZ`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      error: 'Request path is not valid (bad percent-encoding)',
    });
  });

  test('when a route throws a deliberate 503, then 503 with its message and Retry-After', async () => {
    const response = await fetch(`${app.url}/busy`, { method: 'POST' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({ success: false, error: 'The bot is busy. Try again.' });
  });

  test('when an API route answers, then the reply is never cached', async () => {
    const response = await fetch(`${app.url}/api/admin/users/u-1`);
    expect(await response.json()).toEqual({ success: true, data: { id: 'u-1' } });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const failed = await fetch(`${app.url}/api/nowhere`);
    expect(failed.status).toBe(404);
    expect(failed.headers.get('cache-control')).toBe('no-store');
  });

  test('when a route throws an AppError, then its status and message are answered', async () => {
    const response = await fetch(`${app.url}/taken`, { method: 'POST' });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ success: false, error: 'Username is already taken' });
  });

  test('when a route throws anything else, then 500 with a generic message and the error is logged with the request id', async () => {
    const response = await fetch(`${app.url}/boom`, { headers: { 'x-request-id': 'req-boom-1' } });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: 'Internal server error' });
    expect(text).not.toMatch(/hunter2|app\.js|at /);
    const logged = app.logLines().find((line) => line.msg === 'request failed');
    expect(logged).toMatchObject({ requestId: 'req-boom-1', level: 50 });
  });

  test('when no route matches, then a JSON 404', async () => {
    const response = await fetch(`${app.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: 'Not found: GET /nowhere' });
  });

  test('when a request carries x-request-id, then it is echoed and on the request log line', async () => {
    const response = await fetch(`${app.url}/search?page=2`, { headers: { 'x-request-id': 'abc-123' } });
    expect(response.headers.get('x-request-id')).toBe('abc-123');
    const line = app.logLines().find((entry) => entry.requestId === 'abc-123' && entry.msg === 'request completed');
    expect(line).toBeDefined();
  });

  test('when the OAuth callback is requested, then its one-time code and state are not in the request log', async () => {
    await fetch(`${app.url}/api/kick/oauth/callback?code=kick-code-s3cret&state=st4te-value`, {
      headers: { 'x-request-id': 'rid-oauth' },
    });
    const lines = app.logLines().filter((entry) => entry.requestId === 'rid-oauth');
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(lines)).not.toMatch(/kick-code-s3cret|st4te-value/);
    expect(JSON.stringify(lines)).toContain('/api/kick/oauth/callback?code=%5Bredacted%5D');
  });

  test('when a request has no usable request id, then one is made up', async () => {
    const response = await fetch(`${app.url}/search?page=2`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('when any response is sent, then helmet security headers are on it', async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  test('when /healthz is called, then the process says it is alive', async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(await response.json()).toEqual({ success: true, data: { service: 'test', status: 'alive' } });
  });

  test('when the store and the bus answer, then /readyz is 200', async () => {
    const response = await fetch(`${app.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      data: { service: 'test', status: 'ready', checks: { store: 'up', bus: 'up' }, startedAt: processStartedAt },
    });
    // the process start: in the past, and a real time
    expect(Date.parse(processStartedAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(processStartedAt)).toBeGreaterThan(Date.now() - 24 * 3600_000);
  });
});

describe('/readyz', () => {
  test('when the bus does not answer, then 503 names it', async () => {
    const app = await start([
      { name: 'store', check: async () => undefined },
      { name: 'bus', check: () => Promise.reject(new Error('broker down')) },
    ]);
    try {
      const response = await fetch(`${app.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        success: false,
        error: 'Not ready: bus unreachable',
        data: {
          service: 'test',
          status: 'not-ready',
          checks: { store: 'up', bus: 'down' },
          startedAt: processStartedAt,
        },
      });
    } finally {
      await app.close();
    }
  });
});

describe('/metrics', () => {
  test('when /metrics is asked on the app port (public behind the gateway), then 404: metrics live on their own port', async () => {
    const app = await start();
    try {
      const response = await fetch(`${app.url}/metrics`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('kickstand_');
    } finally {
      await app.close();
    }
  });
});
