export {
  createHttpApp,
  defaultHttpSettings,
  securityHeaders,
  type HttpAppOptions,
  type HttpSettings,
} from './create-http-app';
export { createErrorHandler, notFoundHandler, type ErrorBody } from './error-handler';
export { healthRoutes, processStartedAt, type ReadinessCheck } from './health';
export { parseBody, parseParams, parseQuery } from './parse';
export { requestIdOf } from './request-id';
export { closeServer, listen } from './listen';
export { createForwarder, type Forwarder, type ForwarderOptions } from './forward';
export { ephemeralLow, freePort, freePortBlock, type FreePortOptions } from './free-port';
