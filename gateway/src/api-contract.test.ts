import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiRoutes, buildOpenApiDocument } from '@kickstand/api-contract';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createTestPlatform, registeredRoutes, type TestPlatform } from '@kickstand/platform/testing';
import { createRouteMatcher, routeTable } from './route-table';
import { createGateway } from './service';

const match = createRouteMatcher();
/** A path of the route with its `:params` filled in. */
const sampleOf = (path: string) => path.replace(/:[^/]+/g, 'an-id');
const proxied = apiRoutes.filter((route) => route.owner !== 'gateway');

describe('the HTTP contract and the route table', () => {
  test.each(proxied.map((route) => [route.method.toUpperCase(), route.path, route.owner, route.access] as const))(
    'when the contract describes %s %s, then the route table sends it to %s (%s)',
    (_method, routePath, owner, access) => {
      expect(match(sampleOf(routePath))).toMatchObject({ service: owner, access });
    },
  );

  test('when a route table row exists, then the contract describes at least one route under it', () => {
    const uncovered = routeTable.filter((row) => !proxied.some((route) => match(sampleOf(route.path)) === row));
    expect(uncovered).toEqual([]);
  });
});

describe('the gateway’s own routes', () => {
  let platform: TestPlatform;
  let webDir: string;
  let running: RunningService;
  let base: string;

  beforeAll(async () => {
    platform = await createTestPlatform('gateway');
    webDir = await mkdtemp(path.join(tmpdir(), 'kickstand-web-'));
    // nothing listens there: these routes never reach a service
    const upstreams = Object.fromEntries(serviceNames.map((name) => [name, 'http://127.0.0.1:9'])) as Record<
      ServiceName,
      string
    >;
    running = await startHttpService(createGateway(platform, { upstreams, webDistDir: webDir }), { port: 0 });
    base = `http://127.0.0.1:${running.port}`;
  });

  afterAll(async () => {
    await running.stop();
    await platform.close();
    await rm(webDir, { recursive: true, force: true });
  });

  test('when the gateway is built, then the /api routes it answers itself are exactly the contract’s gateway routes', async () => {
    const service = createGateway(platform, {
      upstreams: Object.fromEntries(serviceNames.map((name) => [name, 'http://127.0.0.1:9'])) as Record<
        ServiceName,
        string
      >,
      webDistDir: webDir,
    });
    const own = registeredRoutes(service.app)
      .filter((route) => route.path.startsWith('/api/'))
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    await service.stop();
    const described = apiRoutes
      .filter((route) => route.owner === 'gateway')
      .map((route) => `${route.method.toUpperCase()} ${route.path}`)
      .sort();
    expect(own).toEqual(described);
  });

  test('when GET /api/openapi.json is called without a token, then it answers the contract’s OpenAPI document', async () => {
    const response = await fetch(`${base}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  test('when GET /api/docs is called, then it answers an HTML page naming every route, with no script', async () => {
    const response = await fetch(`${base}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).not.toMatch(/<script/i);
    for (const route of apiRoutes) {
      expect(page).toContain(`${route.method.toUpperCase()}</span> ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    }
  });
});
