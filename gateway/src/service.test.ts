import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createTestPlatform, eventually, type TestPlatform } from '@kickstand/platform/testing';
import express from 'express';
import { createHttpApp } from '@kickstand/platform/http';
import { UserChangeKind } from '@kickstand/proto';
import { createGateway } from './service';

interface Echo {
  service: string;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** When the stand-in upstreams say their process started: 90 s before the tests. */
const upstreamStartedAt = new Date(Date.now() - 90_000).toISOString();

/** A stand-in upstream that answers with what it received, so tests can see what was forwarded. */
async function startEcho(service: string, readyStatus = 200): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/readyz') {
        // as the platform's /readyz: the process start time (auth leaves it out, as an older build would)
        const body = service === 'auth' ? {} : { success: readyStatus === 200, data: { startedAt: upstreamStartedAt } };
        res.writeHead(readyStatus, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        return;
      }
      const echo: Echo = {
        service,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      // a cookie to set, when the test asks for one (as kick-link sets the OAuth link cookie)
      const setCookie = req.headers['x-echo-set-cookie'];
      if (typeof setCookie === 'string') res.setHeader('set-cookie', setCookie);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echo));
    });
  });
  server.on('upgrade', (req, socket) => {
    socket.end(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Echo-Url: ${req.url}\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('gateway', () => {
  let upstreams: Record<ServiceName, Server>;
  let platform: TestPlatform;
  let gateway: RunningService;
  let base: string;
  let webDir: string;
  let asUser: Record<string, string>;
  let asAdmin: Record<string, string>;

  beforeAll(async () => {
    upstreams = Object.fromEntries(
      await Promise.all(serviceNames.map(async (name) => [name, await startEcho(name, name === 'games' ? 503 : 200)])),
    ) as Record<ServiceName, Server>;
    webDir = await mkdtemp(path.join(tmpdir(), 'kickstand-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Kickstand</title>');
    await writeFile(path.join(webDir, 'assets', 'app.js'), 'console.log("app")');
    platform = await createTestPlatform('gateway');
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, urlOf(upstreams[name])])) as Record<
      ServiceName,
      string
    >;
    gateway = await startHttpService(createGateway(platform, { upstreams: upstreamUrls, webDistDir: webDir }), {
      port: 0,
      host: '127.0.0.1',
    });
    base = `http://127.0.0.1:${gateway.port}`;
    asUser = { authorization: `Bearer ${platform.signToken({ userId: 'u-alice', username: 'alice', role: 'USER' })}` };
    asAdmin = {
      authorization: `Bearer ${platform.signToken({ userId: 'u-admin', username: 'admin', role: 'SUPER_ADMIN' })}`,
    };
  });

  afterAll(async () => {
    await gateway.stop();
    await platform.close();
    await Promise.all(Object.values(upstreams).map(close));
    await rm(webDir, { recursive: true, force: true });
  });

  test('when /api/platform/login is called, then auth receives the same path, body bytes and a request id', async () => {
    const body = '{"email":"a@b.c", "password": "not parsed by the gateway"';
    const response = await fetch(`${base}/api/platform/login?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'rid-1' },
      body,
    });
    const echo = (await response.json()) as Echo;
    expect(echo).toMatchObject({ service: 'auth', method: 'POST', url: '/api/platform/login?x=1', body });
    expect(echo.headers['x-request-id']).toBe('rid-1');
    expect(echo.headers['x-forwarded-for']).toBeDefined();
    expect(response.headers.get('x-request-id')).toBe('rid-1');
  });

  test('when a request has no request id, then the gateway makes one and forwards it', async () => {
    const response = await fetch(`${base}/api/commands`, { headers: asUser });
    const echo = (await response.json()) as Echo;
    expect(echo.service).toBe('commands');
    expect(echo.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-request-id')).toBe(echo.headers['x-request-id']);
  });

  test.each([
    ['/api/platform/kick/status', 'kick-link'],
    ['/api/platform/bot/status', 'bot-runner'],
    ['/api/admin/users/u1/webhooks/subscribe-all', 'kick-link'],
    ['/api/admin/users/u1/bot/enable', 'bot-runner'],
    ['/api/admin/users?page=1&limit=200', 'auth'],
  ])('when %s is called, then %s answers', async (url, service) => {
    const echo = (await (await fetch(`${base}${url}`, { headers: asAdmin })).json()) as Echo;
    expect(echo).toMatchObject({ service, url });
    expect(echo.headers.authorization).toBe(asAdmin.authorization);
  });

  test('when a signed-in route is called without a token, then 401 and the service never sees it', async () => {
    const response = await fetch(`${base}/api/commands`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Authentication required' });
  });

  test('when the token is not one auth signed, then 401', async () => {
    const response = await fetch(`${base}/api/platform/profile`, { headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Invalid or expired token' });
  });

  test('when a USER calls an admin route, then 403', async () => {
    for (const url of ['/api/admin/users', '/api/admin/users/u1/bot/enable', '/api/admin/users/u1/webhooks']) {
      const response = await fetch(`${base}${url}`, { headers: asUser });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ success: false, error: 'Administrator access required' });
    }
  });

  test('when a route is public, then no token is needed', async () => {
    for (const [url, service] of [
      ['/api/platform/register', 'auth'],
      ['/api/kick/webhook', 'kick-link'],
    ]) {
      const echo = (await (await fetch(`${base}${url}`, { method: 'POST' })).json()) as Echo;
      expect(echo.service).toBe(service);
    }
  });

  test('when kick-link sets the OAuth link cookie and the browser brings it back to the callback, then both pass the gateway unchanged', async () => {
    const setCookie =
      'kickstand_oauth=k1-_A; Max-Age=600; Path=/api/kick/oauth/callback; Expires=Thu, 26 Nov 2026 18:00:00 GMT; HttpOnly; Secure; SameSite=Lax';
    const started = await fetch(`${base}/api/platform/kick/link`, {
      method: 'POST',
      headers: { ...asUser, 'x-echo-set-cookie': setCookie },
    });
    expect(((await started.json()) as Echo).service).toBe('kick-link');
    expect(started.headers.getSetCookie()).toEqual([setCookie]);

    const callback = await fetch(`${base}/api/kick/oauth/callback?code=c&state=s`, {
      headers: { cookie: 'other=1; kickstand_oauth=k1-_A' },
    });
    const echo = (await callback.json()) as Echo;
    expect(echo).toMatchObject({ service: 'kick-link', url: '/api/kick/oauth/callback?code=c&state=s' });
    expect(echo.headers.cookie).toBe('other=1; kickstand_oauth=k1-_A');
  });

  test('when auth reports a user deactivated, then their next request is refused, and allowed again once reactivated', async () => {
    const bob = { authorization: `Bearer ${platform.signToken({ userId: 'u-bob', username: 'bob', role: 'USER' })}` };
    expect((await fetch(`${base}/api/commands`, { headers: bob })).status).toBe(200);

    await platform.bus.publish('user.changed', 'u-bob', {
      eventId: 'e1',
      userId: 'u-bob',
      kind: UserChangeKind.DEACTIVATED,
      isActive: false,
    });
    await eventually(async () => expect((await fetch(`${base}/api/commands`, { headers: bob })).status).toBe(401));
    const refused = await fetch(`${base}/api/platform/profile`, { headers: bob });
    expect(await refused.json()).toEqual({ success: false, error: 'Your account has been deactivated' });

    await platform.bus.publish('user.changed', 'u-bob', {
      eventId: 'e2',
      userId: 'u-bob',
      kind: UserChangeKind.ACTIVATED,
      isActive: true,
    });
    await eventually(async () => expect((await fetch(`${base}/api/commands`, { headers: bob })).status).toBe(200));
  });

  test('when socket.io polls over HTTP, then realtime answers with the full path', async () => {
    const echo = (await (await fetch(`${base}/socket.io/?EIO=4&transport=polling`)).json()) as Echo;
    expect(echo).toMatchObject({ service: 'realtime', url: '/socket.io/?EIO=4&transport=polling' });
  });

  test('when a websocket upgrade for socket.io arrives, then it is proxied to realtime', async () => {
    const upgraded = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${base}/socket.io/?EIO=4&transport=websocket`, {
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
    expect(upgraded.statusCode).toBe(101);
    expect(upgraded.headers['x-echo-url']).toBe('/socket.io/?EIO=4&transport=websocket');
  });

  test('when /api/health is called and one service is not ready, then 503 lists each service with its uptime', async () => {
    const response = await fetch(`${base}/api/health`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as {
      success: boolean;
      error: string;
      data: { services: { name: string; status: string; uptimeSeconds: number | null }[] };
    };
    expect(body.success).toBe(false);
    expect(body.error).toBe('Services down: games');
    expect(body.data.services.map(({ name, status }) => [name, status])).toEqual([
      ['auth', 'up'],
      ['commands', 'up'],
      ['kick-link', 'up'],
      ['bot-runner', 'up'],
      ['games', 'down'],
      ['realtime', 'up'],
    ]);
    const uptimes = Object.fromEntries(body.data.services.map(({ name, uptimeSeconds }) => [name, uptimeSeconds]));
    // no startedAt in auth's answer: unknown, not zero
    expect(uptimes.auth).toBeNull();
    for (const name of ['commands', 'kick-link', 'bot-runner', 'games', 'realtime']) {
      expect(uptimes[name]).toBeGreaterThanOrEqual(90);
      expect(uptimes[name]).toBeLessThan(90 + 120);
    }
  });

  test('when an /api path matches no service, then a JSON 404', async () => {
    const response = await fetch(`${base}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: 'Not found: GET /api/nothing-here' });
  });

  test('when a browser opens a client-side route, then index.html is served', async () => {
    const response = await fetch(`${base}/dashboard?kick_linked=true`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<!doctype html><title>Kickstand</title>');
  });

  test('when a built asset is asked for, then the file is served', async () => {
    const response = await fetch(`${base}/assets/app.js`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('console.log("app")');
  });

  test('when /api is answered, then Cache-Control is no-store even if the service said nothing; assets stay cacheable', async () => {
    const response = await fetch(`${base}/api/commands`, { headers: asUser });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const refused = await fetch(`${base}/api/commands`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const asset = await fetch(`${base}/assets/app.js`);
    expect(asset.headers.get('cache-control')).not.toBe('no-store');
  });

  test('when /metrics is asked from outside, then the gateway does not serve it (a scraper gets no numbers)', async () => {
    const scraper = await fetch(`${base}/metrics`, { headers: { accept: 'text/plain' } });
    expect(scraper.status).toBe(404);
    expect(await scraper.text()).not.toMatch(/kickstand_|process_cpu/);
    // a browser gets the web app, as for any other unknown page
    const browser = await fetch(`${base}/metrics`, { headers: { accept: 'text/html' } });
    expect(await browser.text()).toBe('<!doctype html><title>Kickstand</title>');
  });

  test('when the gateway itself is probed, then /healthz and /readyz answer', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});

describe('gateway with an upstream down', () => {
  test('when the service does not answer, then 502 with a JSON message and no stack', async () => {
    const platform = await createTestPlatform('gateway');
    const dead = await startEcho('auth');
    const deadUrl = urlOf(dead);
    await close(dead);
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, deadUrl])) as Record<ServiceName, string>;
    const gateway = await startHttpService(
      createGateway(platform, { upstreams: upstreamUrls, webDistDir: '/nonexistent' }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const token = platform.signToken({ userId: 'u-1', username: 'alice', role: 'USER' });
      const response = await fetch(`http://127.0.0.1:${gateway.port}/api/platform/profile`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        success: false,
        error: 'The auth service is unavailable. Please try again shortly.',
      });
      const page = await fetch(`http://127.0.0.1:${gateway.port}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(503);
      expect(await page.text()).toMatch(/npm run build/);
    } finally {
      await gateway.stop();
      await platform.close();
    }
  });

  test('when a client writes its own X-Forwarded-For, then the service gets the address the gateway saw, not the forged one', async () => {
    const platform = await createTestPlatform('gateway');
    const auth = await startEcho('auth');
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, urlOf(auth)])) as Record<
      ServiceName,
      string
    >;
    // nothing in front of this gateway (compose's published port): X-Forwarded-For is never trusted
    const gateway = await startHttpService(
      createGateway(
        { ...platform, http: { bodyLimit: '100kb', trustProxy: 'false' } },
        { upstreams: upstreamUrls, webDistDir: '/nonexistent' },
      ),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const response = await fetch(`http://127.0.0.1:${gateway.port}/api/platform/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: '{}',
      });
      const echo = (await response.json()) as Echo;
      expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
    } finally {
      await gateway.stop();
      await platform.close();
      auth.closeAllConnections();
      await close(auth);
    }
  });

  test('when a client sends a broken path or body through the gateway, then the service answers 4xx, never 500', async () => {
    const platform = await createTestPlatform('gateway');
    const adminRoutes = express.Router();
    adminRoutes.get('/api/admin/users/:id', (req, res) => {
      res.json({ success: true, data: { id: req.params.id } });
    });
    adminRoutes.post('/api/commands', (req, res) => {
      res.json({ success: true, data: req.body as unknown });
    });
    const serviceApp = createHttpApp({ service: 'auth', log: platform.log, routes: [adminRoutes], readiness: [] });
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, 'http://127.0.0.1:9'])) as Record<
      ServiceName,
      string
    >;
    const gateway = await startHttpService(
      createGateway(platform, {
        upstreams: upstreamUrls,
        webDistDir: '/nonexistent',
        inProcessApps: { auth: serviceApp, commands: serviceApp },
      }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const base = `http://127.0.0.1:${gateway.port}`;
      const admin = `Bearer ${platform.signToken({ userId: 'u-1', username: 'root', role: 'SUPER_ADMIN' })}`;
      const badPath = await fetch(`${base}/api/admin/users/%ZZ`, { headers: { authorization: admin } });
      expect(badPath.status).toBe(400);
      const badBody = await fetch(`${base}/api/commands`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: '{"not":"gzip"}',
      });
      expect(badBody.status).toBe(400);
      const unknownEncoding = await fetch(`${base}/api/commands`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json', 'content-encoding': 'x-nope' },
        body: '{}',
      });
      expect(unknownEncoding.status).toBe(415);
    } finally {
      await gateway.stop();
      await platform.close();
    }
  });
});

describe('gateway readiness', () => {
  test('when its store and Kafka do not answer, then the gateway is still ready: it needs neither to route', async () => {
    const platform = await createTestPlatform('gateway');
    const down = () => Promise.reject(new Error('engine down'));
    const deps = { ...platform, store: { ...platform.store, ping: down }, bus: { ...platform.bus, ping: down } };
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, 'http://127.0.0.1:9'])) as Record<
      ServiceName,
      string
    >;
    const gateway = await startHttpService(
      createGateway(deps, { upstreams: upstreamUrls, webDistDir: '/nonexistent' }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const response = await fetch(`http://127.0.0.1:${gateway.port}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ success: true, data: { status: 'ready', checks: {} } });
    } finally {
      await gateway.stop();
      await platform.close();
    }
  });
});

describe('gateway connections to its upstreams', () => {
  test('when several requests go to one service, then they share one kept-alive connection', async () => {
    const platform = await createTestPlatform('gateway');
    const auth = await startEcho('auth');
    let connections = 0;
    auth.on('connection', () => connections++);
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, urlOf(auth)])) as Record<
      ServiceName,
      string
    >;
    const gateway = await startHttpService(
      createGateway(platform, { upstreams: upstreamUrls, webDistDir: '/nonexistent' }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`http://127.0.0.1:${gateway.port}/api/platform/login`, { method: 'POST' });
        expect(response.status).toBe(200);
        await response.text();
      }
      expect(connections).toBe(1);
    } finally {
      await gateway.stop();
      await platform.close();
      auth.closeAllConnections();
      await close(auth);
    }
  });

  test('when a service runs in the same process, then its requests go to its app directly, access checked and with the request id', async () => {
    const platform = await createTestPlatform('gateway');
    const dead = await startEcho('commands');
    const deadUrl = urlOf(dead);
    await close(dead); // nothing listens: only the in-process app can answer
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, deadUrl])) as Record<ServiceName, string>;
    const commandsApp = express();
    commandsApp.get('/api/commands', (req, res) => {
      res.cookie('kickstand_oauth', 'k2', { httpOnly: true, sameSite: 'lax', path: '/api/kick/oauth/callback' });
      res.json({
        url: req.originalUrl,
        requestId: req.headers['x-request-id'],
        user: req.headers.authorization,
        cookie: req.headers.cookie,
      });
    });
    const gateway = await startHttpService(
      createGateway(platform, {
        upstreams: upstreamUrls,
        webDistDir: '/nonexistent',
        inProcessApps: { commands: commandsApp },
      }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const base = `http://127.0.0.1:${gateway.port}`;
      const authorization = `Bearer ${platform.signToken({ userId: 'u-1', username: 'alice', role: 'USER' })}`;
      const response = await fetch(`${base}/api/commands?page=2`, {
        headers: { authorization, 'x-request-id': 'rid-in-process', cookie: 'kickstand_oauth=k1' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        url: '/api/commands?page=2',
        requestId: 'rid-in-process',
        user: authorization,
        cookie: 'kickstand_oauth=k1',
      });
      // cookies both ways, as kick-link's OAuth link needs them (single-machine mode)
      expect(response.headers.getSetCookie()).toEqual([
        'kickstand_oauth=k2; Path=/api/kick/oauth/callback; HttpOnly; SameSite=Lax',
      ]);
      expect(response.headers.get('x-request-id')).toBe('rid-in-process');
      expect((await fetch(`${base}/api/commands`)).status).toBe(401);
      // the other services are still proxied (and here unreachable)
      expect((await fetch(`${base}/api/platform/profile`, { headers: { authorization } })).status).toBe(502);
    } finally {
      await gateway.stop();
      await platform.close();
    }
  });
});

describe("gateway and realtime's socket.io in the same process", () => {
  test('when realtime runs in the gateway process, then socket.io polls and websocket upgrades go to its entry, not over loopback', async () => {
    const platform = await createTestPlatform('gateway');
    const dead = await startEcho('realtime');
    const deadUrl = urlOf(dead);
    await close(dead); // nothing listens: only the entry can answer
    const upstreamUrls = Object.fromEntries(serviceNames.map((name) => [name, deadUrl])) as Record<ServiceName, string>;
    const gateway = await startHttpService(
      createGateway(platform, {
        upstreams: upstreamUrls,
        webDistDir: '/nonexistent',
        inProcessSocketIo: {
          handleRequest: (req, res) => {
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ entry: req.url }));
          },
          handleUpgrade: (req, socket) => {
            socket.end(
              `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Entry-Url: ${req.url}\r\n\r\n`,
            );
          },
        },
      }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const base = `http://127.0.0.1:${gateway.port}`;
      expect(await (await fetch(`${base}/socket.io/?EIO=4&transport=polling`)).json()).toEqual({
        entry: '/socket.io/?EIO=4&transport=polling',
      });
      const upgraded = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(`${base}/socket.io/?EIO=4&transport=websocket`, {
          headers: {
            Connection: 'Upgrade',
            Upgrade: 'websocket',
            'Sec-WebSocket-Version': '13',
            'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
          },
        });
        req.on('upgrade', (res, socket) => {
          socket.destroy();
          resolve(res);
        });
        req.on('error', reject);
        req.end();
      });
      expect(upgraded.statusCode).toBe(101);
      expect(upgraded.headers['x-entry-url']).toBe('/socket.io/?EIO=4&transport=websocket');
    } finally {
      await gateway.stop();
      await platform.close();
    }
  });
});
