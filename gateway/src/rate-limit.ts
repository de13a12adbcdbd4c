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
 * Counts the requests of each client address (`req.ip`, which honours `trust proxy`) in a fixed
 * one-minute window and refuses those beyond the limit. Kick's webhook is never counted (the
 * contract's `isRateLimited: false`): Kick's deliveries must not be slowed by us. The counts live
 * in this gateway's memory, so N gateways allow N times the limit: it is a guard against a runaway
 * client, not a quota.
 */
export function createApiRateLimiter(limit: ApiRateLimit = defaultApiRateLimit): (req: Request) => Promise<void> {
  if (limit.perMinute <= 0) return async () => {};
  const limiter = new RateLimiterMemory({ points: limit.perMinute, duration: 60 });
  const exempt = new Set(rateLimitExemptPaths);
  return async (req) => {
    if (exempt.has(req.path)) return;
    try {
      await limiter.consume(req.ip ?? 'unknown');
    } catch (refused) {
      if (refused instanceof RateLimiterRes) {
        throw new TooManyRequestsError(Math.max(1, Math.ceil(refused.msBeforeNext / 1000)));
      }
      throw refused;
    }
  };
}
