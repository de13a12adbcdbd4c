import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../log';
import { processMetrics } from '../metrics/metrics';
import { createErrorHandler, notFoundHandler } from './error-handler';
import { healthRoutes, type ReadinessCheck } from './health';
import { requestIdOf } from './request-id';

declare module 'http' {
  interface IncomingMessage {
    /** The exact bytes of a JSON body, kept for signature checks (Kick webhooks). */
    rawBody?: Buffer;
  }
}

/** HTTP settings from the platform configuration (HTTP_BODY_LIMIT, TRUST_PROXY). */
export interface HttpSettings {
  /** e.g. '100kb'. */
  bodyLimit: string;
  /** Express's `trust proxy`: which hops may set X-Forwarded-For (per-IP rate limits read it). */
  trustProxy: string;
}

export const defaultHttpSettings: HttpSettings = { bodyLimit: '100kb', trustProxy: 'loopback' };

export interface HttpAppOptions {
  service: string;
  log: Logger;
  routes: readonly Router[];
  readiness: readonly ReadinessCheck[];
  http?: HttpSettings;
  /** The gateway streams bodies to upstreams untouched, so it turns JSON parsing off. */
  parseJson?: boolean;
  /** Mounted after the routes and before the JSON 404 (the gateway's SPA fallback). */
  fallback?: readonly Router[];
}

/** helmet → request id + request log → JSON body (size-limited) → health → routes → 404 → error handler. */
export function createHttpApp(options: HttpAppOptions): Express {
  const http = options.http ?? defaultHttpSettings;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxyValue(http.trustProxy));
  app.use(helmet());
  app.use(recordRequestDuration(options.service));
  app.use(
    pinoHttp({
      logger: options.log,
      genReqId: (req, res) => {
        const id = requestIdOf(req);
        res.setHeader('x-request-id', id);
        return id;
      },
      customAttributeKeys: { reqId: 'requestId' },
      quietReqLogger: true,
      // Probes hit these every few seconds; logging them would drown the useful lines.
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
    }),
  );
  if (options.parseJson !== false) {
    app.use(
      express.json({
        limit: http.bodyLimit,
        verify: (req, _res, buffer) => {
          req.rawBody = buffer;
        },
      }),
    );
  }
  app.use(healthRoutes(options.service, options.readiness));
  app.get('/metrics', async (_req, res) => {
    const { registry } = processMetrics();
    res.type(registry.contentType).send(await registry.metrics());
  });
  for (const router of options.routes) app.use(router);
  for (const router of options.fallback ?? []) app.use(router);
  app.use(notFoundHandler);
  app.use(createErrorHandler(options.log));
  return app;
}

/** "true"/"false", a hop count, or Express's named/CIDR list ("loopback", "10.0.0.0/8, uniquelocal"). */
function trustProxyValue(setting: string): boolean | number | string {
  if (setting === 'true') return true;
  if (setting === 'false') return false;
  if (/^\d+$/.test(setting)) return Number(setting);
  return setting;
}

/** The HTTP latency histogram, labelled with the matched route pattern so raw paths never become labels. */
function recordRequestDuration(service: string): RequestHandler {
  const { httpRequestDuration } = processMetrics();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      httpRequestDuration.observe({ service, method: req.method, route, status: String(res.statusCode) }, seconds);
    });
    next();
  };
}
