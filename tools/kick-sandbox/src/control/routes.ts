import express, { Router } from 'express';
import { clientErrorsAsBadRequest } from '../client-errors';
import type { ControlDeps } from './control-deps';
import { translateControlErrors } from './control-kit';
import { controlEventsRoutes } from './events-routes';
import { controlInspectRoutes } from './inspect-routes';
import { controlRealKickRoutes } from './real-kick-routes';
import { controlSettingsRoutes } from './settings-routes';
import { controlUsersRoutes } from './users-routes';

/**
 * The sandbox's own API under /sandbox/api: JSON in camelCase, `{ success: true, data }` or
 * `{ success: false, error, details? }` (the platform's error handler answers). No authentication:
 * it is a local test tool, listening on the loopback interface in single-machine mode.
 */
export function controlRoutes(deps: ControlDeps): Router {
  const api = Router();
  api.use(express.json({ limit: '100kb' }));
  api.use(controlUsersRoutes(deps));
  api.use(controlEventsRoutes(deps));
  api.use(controlInspectRoutes(deps));
  api.use(controlSettingsRoutes(deps));
  api.use(controlRealKickRoutes(deps));
  api.use(translateControlErrors);
  api.use(clientErrorsAsBadRequest);

  const router = Router();
  router.use('/sandbox/api', api);
  return router;
}
