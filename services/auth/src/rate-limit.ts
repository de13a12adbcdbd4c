import type { Clock } from '@kickstand/platform/clock';
import { AppError } from '@kickstand/platform/errors';
import type { AuthRepository } from './repository';

export interface RateLimitSettings {
  /** Attempts allowed per key and window; the next one is refused. */
  maxAttempts: number;
  windowMs: number;
}

/** At most 10 login or register attempts a minute per IP and per email. */
export const defaultRateLimit: Readonly<RateLimitSettings> = Object.freeze({ maxAttempts: 10, windowMs: 60_000 });

export type RateLimitDecision = { isAllowed: true } | { isAllowed: false; retryAfterSeconds: number };

/** One fixed window: which window `now` falls in, and when it ends (pure). */
export function windowOf(now: Date, windowMs: number): { start: number; end: number } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const unit = retryAfterSeconds === 1 ? 'second' : 'seconds';
  return `Too many attempts. Please try again in ${retryAfterSeconds} ${unit}.`;
}

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError({ code: 'too-many-attempts', status: 429, message: tooManyAttemptsMessage(retryAfterSeconds) });

export interface RateLimiter {
  /** Counts the attempt (allowed or not) against `<kind>:<key>` and says whether it may go ahead. */
  hit(kind: string, key: string): Promise<RateLimitDecision>;
}

/**
 * A fixed-window counter in the store (`rate-limits`, one document per key and window, expiring
 * with its window), so the limit holds across auth replicas and restarts. Time comes from the
 * injected clock.
 */
export function createRateLimiter(repo: AuthRepository, clock: Clock, settings: RateLimitSettings): RateLimiter {
  return {
    async hit(kind, key) {
      const now = clock.now();
      const window = windowOf(now, settings.windowMs);
      const count = await repo.rateLimits.hit(`${kind}:${key}:${window.start}`, new Date(window.end));
      if (count <= settings.maxAttempts) return { isAllowed: true };
      return { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.end - now.getTime()) / 1000)) };
    },
  };
}
