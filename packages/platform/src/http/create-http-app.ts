import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../log';
import { redactQuery, redactUrl } from '../log/redact-url';
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

/** Probes hit these every few seconds; logging them would drown the useful lines. */
const unloggedPaths = new Set(['/healthz', '/readyz']);

/**
 * Machine traffic at the rate of chat (Kick's webhook deliveries, one per chat line of every
 * channel): a request line each would cost more than handling it, so only failures are logged.
 */
export const quietRequestPaths: ReadonlySet<string> = new Set(['/api/kick/webhook']);

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
  /** More paths logged like quietRequestPaths, only when they fail (the Kick sandbox's POST /public/v1/chat). */
  quietPaths?: readonly string[];
}

/**
 * The security headers every answer carries: helmet's defaults, plus Kick's emote CDN as an image
 * source (the SPA shows chat emotes from it). Exported for a route answered outside Express that
 * must answer with the same headers (the Kick sandbox's POST /chat).
 */
export const securityHeaders = helmet({
  contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:', 'https://files.kick.com'] } },
});

/** helmet → request id + request log → JSON body (size-limited) → health → routes → 404 → error handler. */
export function createHttpApp(options: HttpAppOptions): Express {
  const http = options.http ?? defaultHttpSettings;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxyValue(http.trustProxy));
  app.use(securityHeaders);
  app.use(recordRequestDuration(options.service));
  const requestLog = pinoHttp({
    logger: options.log,
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader('x-request-id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'requestId' },
    // the OAuth callback's one-time code must not end up in the logs
    serializers: { req: redactRequest },
    quietReqLogger: true,
    autoLogging: { ignore: (req) => unloggedPaths.has(req.url ?? '') },
  });
  const quietRequestLog = quietRequestLogger(options.log);
  const quietPaths = new Set([...quietRequestPaths, ...(options.quietPaths ?? [])]);
  app.use((req, res, next) => (quietPaths.has(req.url) ? quietRequestLog : requestLog)(req, res, next));
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
  // API replies carry tokens, users and stream settings: no browser or proxy cache may keep them.
  app.use('/api', noStore);
  app.use(healthRoutes(options.service, options.readiness));
  // no /metrics here: this port may be public (the gateway's); see lifecycle/metrics-server.ts
  for (const router of options.routes) app.use(router);
  for (const router of options.fallback ?? []) app.use(router);
  app.use(notFoundHandler);
  app.use(createErrorHandler(options.log));
  return app;
}

/** pino-http's serialised request (std-serializers), with secrets in the query hidden. */
function redactRequest(req: { url?: unknown; query?: unknown }): unknown {
  if (typeof req.url === 'string') req.url = redactUrl(req.url);
  req.query = redactQuery(req.query);
  return req;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** "true"/"false", a hop count, or Express's named/CIDR list ("loopback", "10.0.0.0/8, uniquelocal"). */
function trustProxyValue(setting: string): boolean | number | string {
  if (setting === 'true') return true;
  if (setting === 'false') return false;
  if (/^\d+$/.test(setting)) return Number(setting);
  return setting;
}

/**
 * The request log of the quiet paths: the request id as pino-http gives it (req.id, x-request-id,
 * req.log made only when asked for), and a line like pino-http's only when the request failed.
 * pino-http itself costs ~70 µs a request even when it logs nothing.
 */
function quietRequestLogger(log: Logger): RequestHandler {
  return (req, res, next) => {
    const id = requestIdOf(req);
    req.id = id;
    res.setHeader('x-request-id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= log.child({ requestId: id })),
    });
    const startedAt = Date.now();
    res.on('finish', () => {
      if (res.statusCode < 400) return;
      log.info(
        {
          requestId: id,
          req: { id, method: req.method, url: redactUrl(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Date.now() - startedAt,
        },
        'request completed',
      );
    });
    next();
  };
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
