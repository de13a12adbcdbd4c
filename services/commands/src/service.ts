import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';

/** Custom commands per streamer. The HTTP routes and bus handlers are not wired in yet. */
export function createCommandsService(deps: PlatformDeps): Service {
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
