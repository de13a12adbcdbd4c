import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument, gatewayMessages } from '@kickstand/api-contract';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import type { ApiRateLimit } from './rate-limit';
import { createGateway } from './service';

/** One stand-in upstream for every service: answers 200 with the path it was asked for. */
let upstream: Server;
const upstreamSaw: string[] = [];
let platform: TestPlatform;
let webDir: string;
const running: RunningService[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    upstreamSaw.push(req.url ?? '');
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url })),
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  platform = await createTestPlatform('gateway');
  webDir = await mkdtemp(path.join(tmpdir(), 'kickstand-web-'));
});

afterAll(async () => {
  for (const gateway of running) await gateway.stop();
  await platform.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await rm(webDir, { recursive: true, force: true });
});

async function gatewayWith(rateLimit: ApiRateLimit): Promise<string> {
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const upstreams = Object.fromEntries(serviceNames.map((name) => [name, url])) as Record<ServiceName, string>;
  const gateway = await startHttpService(createGateway(platform, { upstreams, webDistDir: webDir, rateLimit }), {
    port: 0,
    host: '127.0.0.1',
  });
  running.push(gateway);
  return `http://127.0.0.1:${gateway.port}`;
}

/** The gateway trusts X-Forwarded-For from loopback (`trust proxy`): each test speaks as its own address. */
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('the gateway rate limit per client address', () => {
  test('when an address goes over its requests per minute, then 429 with Retry-After and the service never sees it', async () => {
    const base = await gatewayWith({ perMinute: 3 });
    upstreamSaw.length = 0;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await fetch(`${base}/api/games/catalog`, { headers: from('203.0.113.1') })).status);
    }
    const refused = await fetch(`${base}/api/games/catalog`, { headers: from('203.0.113.1') });

    expect(statuses).toEqual([200, 200, 200]);
    expect(refused.status).toBe(429);
    expect(upstreamSaw).toHaveLength(3);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ success: false, error: gatewayMessages.tooManyRequests(retryAfter) });
  });

  test('when one address is refused, then another address still gets through', async () => {
    const base = await gatewayWith({ perMinute: 1 });
    await fetch(`${base}/api/games/catalog`, { headers: from('203.0.113.2') });
    expect((await fetch(`${base}/api/games/catalog`, { headers: from('203.0.113.2') })).status).toBe(429);

    expect((await fetch(`${base}/api/games/catalog`, { headers: from('203.0.113.3') })).status).toBe(200);
  });

  test('when Kick delivers webhooks past the limit, then none is refused', async () => {
    const base = await gatewayWith({ perMinute: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await fetch(`${base}/api/kick/webhook`, { method: 'POST', headers: from('203.0.113.4') });
      statuses.push(answer.status);
    }

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  test('when the client is this machine itself (loopback), then it is not limited', async () => {
    const base = await gatewayWith({ perMinute: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${base}/api/games/catalog`)).status);
    for (let i = 0; i < 2; i += 1)
      statuses.push((await fetch(`${base}/api/games/catalog`, { headers: from('::1') })).status);

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  test('when the limit is 0, then it is off', async () => {
    const base = await gatewayWith({ perMinute: 0 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      statuses.push((await fetch(`${base}/api/games/catalog`, { headers: from('203.0.113.5') })).status);
    }

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  test('when the OpenAPI document is read, then every service route lists the 429, and the webhook does not', () => {
    const paths = buildOpenApiDocument().paths;
    expect(paths['/api/games/catalog']?.get?.responses['429']?.description).toBe(
      gatewayMessages.tooManyRequestsDescription,
    );
    expect(paths['/api/platform/login']?.post?.responses['429']?.description).toBe(
      `Too many failed attempts (Retry-After says when to try again); ${gatewayMessages.tooManyRequestsDescription}`,
    );
    expect(paths['/api/kick/webhook']?.post?.responses['429']).toBeUndefined();
    expect(paths['/api/health']?.get?.responses['429']).toBeUndefined();
  });
});
