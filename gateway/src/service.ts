import type { Socket } from 'node:net';
import { Router } from 'express';
import { serviceNames, type ServiceName } from '@kickstand/platform/config';
import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import type { Subscription } from '@kickstand/platform/bus';
import { createAccessGuard } from './access';
import { createDeactivatedUsers } from './deactivated-users';
import { subscribeUserChanges } from './events';
import { healthRoute } from './health';
import { createServiceProxy } from './proxy';
import { createRouteMatcher } from './route-table';
import { spaRoutes } from './spa';

export interface GatewayOptions {
  upstreams: Record<ServiceName, string>;
  webDistDir: string;
  /** Names this instance's user.changed consumer group (`gateway.<instanceId>`). */
  instanceId: string;
}

/** request id → helmet → /api/health → route table (access check, proxy) → SPA → JSON 404 → errors. */
export function createGateway(deps: PlatformDeps, options: GatewayOptions): Service {
  const proxies = Object.fromEntries(
    serviceNames.map((service) => [service, createServiceProxy(service, options.upstreams[service], deps.log)]),
  ) as Record<ServiceName, ReturnType<typeof createServiceProxy>>;
  const matchRoute = createRouteMatcher();
  const deactivatedUsers = createDeactivatedUsers(deps.store);
  const checkAccess = createAccessGuard({ tokens: deps.tokens, deactivatedUsers });
  let userChanges: Subscription | undefined;

  const apiRoutes = Router();
  apiRoutes.use((req, res, next) => {
    const route = matchRoute(req.path);
    if (!route) return next();
    checkAccess(route, req);
    return proxies[route.service].handle(req, res, next);
  });
  // socket.io's polling transport is plain HTTP; websocket upgrades go through onUpgrade below.
  apiRoutes.use('/socket.io', (req, res, next) => {
    req.url = req.originalUrl;
    return proxies.realtime.handle(req, res, next);
  });

  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    parseJson: false,
    routes: [healthRoute(options.upstreams), apiRoutes],
    fallback: [spaRoutes(options.webDistDir)],
    readiness: platformReadiness(deps),
  });

  return {
    app,
    start: async () => {
      await deactivatedUsers.load();
      userChanges = await subscribeUserChanges(deps.bus, options.instanceId, deactivatedUsers);
    },
    stop: async () => {
      await userChanges?.stop();
    },
    onUpgrade: (req, socket, head) => {
      if (req.url?.startsWith('/socket.io')) proxies.realtime.upgrade(req, socket as Socket, head);
      else socket.destroy();
    },
  };
}
