import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { z } from 'zod';
import type { Logger } from '@kickstand/platform/log';
import { clientErrorStatus } from '../client-errors';

export interface KickEnvelope {
  data: unknown;
  message: string;
}

/** An error answered in Kick's REST envelope (kick-api.md §1.2). */
export class KickApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: KickEnvelope,
  ) {
    super(typeof body.data === 'string' ? body.data : body.message);
    this.name = 'KickApiError';
  }
}

export const kickUnauthorized = () => new KickApiError(401, { data: {}, message: 'Unauthorized' });
export const kickForbidden = () => new KickApiError(403, { data: {}, message: 'Forbidden' });
export const kickInvalidRequest = () => new KickApiError(400, { data: {}, message: 'Invalid request' });
/** A business rule said no; `reason` goes into `data`, as in `{"data":"Channel not found","message":"Bad request"}`. */
export const kickBadRequest = (reason: string) => new KickApiError(400, { data: reason, message: 'Bad request' });
export const kickNotFound = () => new KickApiError(404, { data: {}, message: 'Not found' });
/** Real Kick's answer to `type: "bot"` chat for most apps (kick-api.md §5.1), and to anything that broke. */
export const kickServerError = () => new KickApiError(500, { data: null, message: 'Internal server error' });
/** No body is quoted for Kick's 429 (§9); this follows the 401's shape. */
export const kickTooManyRequests = () => new KickApiError(429, { data: {}, message: 'Too Many Requests' });

/** Parses with zod; anything wrong is Kick's plain validation error, never a 500. */
export function parseKick<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw kickInvalidRequest();
  return result.data;
}

export const kickRouteNotFound: RequestHandler = (_req, res) => {
  res.status(404).json(kickNotFound().body);
};

export function kickErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof KickApiError) {
      res.status(error.status).json(error.body);
      return;
    }
    // the client's fault as Express saw it: bad JSON, too large, a path that does not decode
    const clientStatus = clientErrorStatus(error);
    if (clientStatus === 413) {
      res.status(413).json({ data: {}, message: 'Request entity too large' });
      return;
    }
    if (clientStatus !== undefined) {
      res.status(400).json(kickInvalidRequest().body);
      return;
    }
    log.error({ err: error }, 'Kick API request failed');
    res.status(500).json(kickServerError().body);
  };
}
