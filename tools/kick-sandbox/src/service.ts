import { Router } from 'express';
import { createHttpApp } from '@kickstand/platform/http';
import type { Service } from '@kickstand/platform/lifecycle';
import type { Logger } from '@kickstand/platform/log';

export interface KickSandboxDeps {
  log: Logger;
}

/**
 * The local stand-in for Kick's public API (see ../../shared/kick-api.md §11). This skeleton only
 * answers its health check and an index page; the OAuth server, REST endpoints and signed webhook
 * deliveries are not built yet.
 */
export function createKickSandbox(deps: KickSandboxDeps): Service {
  const pages = Router();
  pages.get('/', (_req, res) => {
    res
      .type('html')
      .send('<!doctype html><title>Kick sandbox</title><h1>Kick sandbox</h1><p>A local stand-in for Kick.</p>');
  });
  const app = createHttpApp({ service: 'kick-sandbox', log: deps.log, routes: [pages], readiness: [] });
  return { app, start: async () => undefined, stop: async () => undefined };
}
