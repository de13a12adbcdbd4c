import type { Request } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { gatewayMessages, rateLimitExemptPaths } from '@kickstand/api-contract';
import { AppError } from '@kickstand/platform/errors';

export interface ApiRateLimit {
  /** Requests one client address may make per minute to the /api routes handed to services; 0 turns it off. */
  perMinute: number;
}

export const defaultApiRateLimit: Readonly<ApiRateLimit> = Object.freeze({ perMinute: 600 });

/** 429 with Retry-After: this address sent more than its share; the error handler answers it. */
export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number) {
    super({
      code: 'too-many-requests',
      status: 429,
      message: gatewayMessages.tooManyRequests(retryAfterSeconds),
      retryAfterSeconds,
    });
  }
}

/**
 * This machine itself: the product's own tools (e2e, bench, schemathesis) and the browser of
 * someone running `npm start`. A proxy in front is trusted (TRUST_PROXY) to name the real client.
 */
function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

/**
 * Counts the requests of each client address (`req.ip`, which honours `trust proxy`) in a fixed
 * one-minute window and refuses those beyond the limit. Kick's webhook is never counted (the
 * contract's `isRateLimited: false`): Kick's deliveries must not be slowed by us; nor is this
 * machine itself (loopback). The counts live
 * in this gateway's memory, so N gateways allow N times the limit: it is a guard against a runaway
 * client, not a quota.
 */
export function createApiRateLimiter(limit: ApiRateLimit = defaultApiRateLimit): (req: Request) => Promise<void> {
  if (limit.perMinute <= 0) return async () => {};
  const limiter = new RateLimiterMemory({ points: limit.perMinute, duration: 60 });
  const exempt = new Set(rateLimitExemptPaths);
  return async (req) => {
    const ip = req.ip ?? 'unknown';
    if (exempt.has(req.path) || isLoopback(ip)) return;
    try {
      await limiter.consume(ip);
    } catch (refused) {
      if (refused instanceof RateLimiterRes) {
        throw new TooManyRequestsError(Math.max(1, Math.ceil(refused.msBeforeNext / 1000)));
      }
      throw refused;
    }
  };
}
