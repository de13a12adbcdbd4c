import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';

/** Bot on/off, the enabled flag and command dispatch. The HTTP routes and bus handlers are not wired in yet. */
export function createBotRunnerService(deps: PlatformDeps): Service {
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
