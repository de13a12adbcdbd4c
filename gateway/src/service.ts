import type { Socket } from 'node:net';
import { Router, type RequestHandler } from 'express';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service, type SocketIoEntry } from '@kickstand/platform/lifecycle';
import { createAccessGuard } from './access';
import { apiDocsRoutes } from './api-docs';
import { healthRoute } from './health';
import { createServiceProxy } from './proxy';
import { createApiRateLimiter, type ApiRateLimit } from './rate-limit';
import { createRouteMatcher } from './route-table';
import { spaRoutes } from './spa';
import { createWebhookPassThrough } from './webhook-pass-through';

export { gatewaySettingsSchema, rateLimitFrom } from './config';
export { defaultApiRateLimit, type ApiRateLimit } from './rate-limit';

export interface GatewayOptions {
  upstreams: Record<ServiceName, string>;
  webDistDir: string;
  /**
   * Single-machine mode: the services' apps, running in this same process. Their HTTP requests
   * are handed to the app directly instead of proxied over loopback, which would cost more than
   * handling a webhook (see docs/performance.md). Socket.io goes to `inProcessSocketIo` when given.
   */
  inProcessApps?: Partial<Record<ServiceName, RequestHandler>>;
  /**
   * Single-machine mode: realtime's socket.io, served on this server (no loopback hop per frame,
   * docs/performance.md "Fan-out"); without it socket.io is proxied to realtime.
   */
  inProcessSocketIo?: SocketIoEntry;
  /** Per client address, on the routes handed to services (never Kick's webhook). Default 600 a minute. */
  rateLimit?: ApiRateLimit;
}

/** request id → helmet → /api/health, /api/openapi.json, /api/docs → route table (rate limit, access check, proxy) → SPA → JSON 404 → errors. */
export function createGateway(deps: PlatformDeps, options: GatewayOptions): Service {
  const proxies = Object.fromEntries(
    serviceNames.map((service) => [service, createServiceProxy(service, options.upstreams[service], deps.log)]),
  ) as Record<ServiceName, ReturnType<typeof createServiceProxy>>;
  const handlers = Object.fromEntries(
    serviceNames.map((service) => [service, handOff(options.inProcessApps?.[service]) ?? proxies[service].handle]),
  ) as Record<ServiceName, RequestHandler>;
  // kick-link in another process: Kick's deliveries skip the app (webhook-pass-through.ts)
  const webhooks = options.inProcessApps?.['kick-link']
    ? undefined
    : createWebhookPassThrough(options.upstreams['kick-link'], deps.log);
  const matchRoute = createRouteMatcher();
  const checkAccess = createAccessGuard({ tokens: deps.tokens });
  const limitRate = createApiRateLimiter(options.rateLimit);

  const apiRoutes = Router();
  apiRoutes.use(async (req, res, next) => {
    const route = matchRoute(req.path);
    if (!route) return next();
    await limitRate(req);
    checkAccess(route, req);
    return handlers[route.service](req, res, next);
  });
  // socket.io's polling transport is plain HTTP; websocket upgrades go through onUpgrade below.
  apiRoutes.use('/socket.io', (req, res, next) => {
    req.url = req.originalUrl;
    if (options.inProcessSocketIo) return options.inProcessSocketIo.handleRequest(req, res);
    return proxies.realtime.handle(req, res, next);
  });

  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    parseJson: false,
    routes: [healthRoute(options.upstreams), apiDocsRoutes(), apiRoutes],
    fallback: [spaRoutes(options.webDistDir)],
    // Ready needs no engine: requests are checked from memory and proxied, so a store or Kafka blip
    // must not take every gateway out of the Service (and answer 503 to Kick's webhooks).
    readiness: platformReadiness(deps, []),
  });

  return {
    app,
    start: async () => {},
    stop: async () => {
      for (const proxy of Object.values(proxies)) proxy.close();
      webhooks?.close();
    },
    ...(webhooks ? { handleFirst: webhooks.handle } : {}),
    onUpgrade: (req, socket, head) => {
      if (!req.url?.startsWith('/socket.io')) socket.destroy();
      else if (options.inProcessSocketIo) options.inProcessSocketIo.handleUpgrade(req, socket, head);
      else proxies.realtime.upgrade(req, socket as Socket, head);
    },
  };
}

/** A request for a service in this process, as the proxy would deliver it: with the gateway's request id. */
function handOff(app: RequestHandler | undefined): RequestHandler | undefined {
  if (!app) return undefined;
  return (req, res, next) => {
    const id = (req as { id?: unknown }).id; // set by the request log (pino-http)
    if (typeof id === 'string') req.headers['x-request-id'] = id;
    return app(req, res, next);
  };
}
