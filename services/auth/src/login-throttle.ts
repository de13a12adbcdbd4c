import type { Clock } from '@kickstand/platform/clock';
import { AppError } from '@kickstand/platform/errors';
import type { Collection } from '@kickstand/platform/store';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { StoreRateLimiter, type RateLimitDoc } from './store-rate-limiter';

export interface LoginThrottleSettings {
  /** Failed sign-ins one address may make for one account before each next one waits. */
  freeFailures: number;
  /** The first wait, in seconds; it doubles with every further failure... */
  firstDelaySeconds: number;
  /** ...up to this many seconds. */
  maxDelaySeconds: number;
  /** Seconds after an account + address pair's first failure until its count starts again (a success resets it at once). */
  failureMemorySeconds: number;
  /** Failed sign-ins one address may make across all accounts per `addressWindowSeconds`; beyond, it waits for the window's end. */
  addressFailures: number;
  addressWindowSeconds: number;
}

/**
 * After 5 failures for one account from one address, 1 s, then 2, 4, … up to 15 min before the
 * next try; an address that failed 100 times in 15 minutes, whatever the accounts, waits out the
 * rest of them (high enough for an office or a school behind one address).
 */
export const defaultLoginThrottle: Readonly<LoginThrottleSettings> = Object.freeze({
  freeFailures: 5,
  firstDelaySeconds: 1,
  maxDelaySeconds: 15 * 60,
  failureMemorySeconds: 24 * 60 * 60,
  addressFailures: 100,
  addressWindowSeconds: 15 * 60,
});

/** The wait after the `failures`-th failure of one account from one address, in seconds (0 while free). */
export function delayAfterFailures(failures: number, settings: LoginThrottleSettings): number {
  if (failures < settings.freeFailures) return 0;
  const doublings = failures - settings.freeFailures;
  // 2^doublings grows past any cap long before it stops being exact
  return Math.min(settings.firstDelaySeconds * 2 ** Math.min(doublings, 40), settings.maxDelaySeconds);
}

/** "37 seconds", "1 second", "15 minutes" (rounded up): how the wait reads in the answer. */
export function waitText(retryAfterSeconds: number): string {
  if (retryAfterSeconds < 60) return `${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many attempts. Please try again in ${waitText(retryAfterSeconds)}.`;
}

/** 429 with the wait in its message; the error handler sets `Retry-After` from `retryAfterSeconds`. */
export class TooManyAttemptsError extends AppError {
  declare readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super({
      code: 'too-many-attempts',
      status: 429,
      message: tooManyAttemptsMessage(retryAfterSeconds),
      retryAfterSeconds,
    });
  }
}

export interface LoginThrottle {
  /**
   * Runs one credential check for `account` (the email as typed, any letter case) from `address`:
   * refuses it with TooManyAttemptsError while that pair or that address must wait; counts it
   * when it throws `isCredentialFailure`; forgets the pair's failures when it succeeds.
   */
  check<T>(account: string, address: string, verify: () => Promise<T>): Promise<T>;
}

const secondsOf = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * Counts only failed credential checks, so nobody can lock an owner out: the waits grow per
 * account + address (an attacker elsewhere never delays the owner's correct password from their
 * own address), and the address ceiling is counted across accounts (one address cannot try a few
 * passwords on every account). A success resets its account + address pair, never the address
 * ceiling (or one account the attacker owns would wipe it).
 *
 * The address counter is taken before the password is checked and given back when it was right,
 * so parallel requests cannot all slip in before the first failure is written.
 */
export function createLoginThrottle({
  collection,
  clock,
  settings,
  isCredentialFailure,
}: {
  collection: Collection<RateLimitDoc>;
  clock: Clock;
  settings: LoginThrottleSettings;
  isCredentialFailure: (error: unknown) => boolean;
}): LoginThrottle {
  const limiter = (keyPrefix: string, points: number, duration: number) =>
    new StoreRateLimiter({ collection, clock, keyPrefix, points, duration });
  const failuresByAddress = limiter('login-fails-ip', settings.addressFailures, settings.addressWindowSeconds);
  const failuresByPair = limiter('login-fails', Number.MAX_SAFE_INTEGER, settings.failureMemorySeconds);
  // a separate key holds each pair's current wait: `block` overwrites the points of its key
  const waitByPair = limiter('login-wait', 0, settings.maxDelaySeconds);

  /** Counts the attempt against the address; over its ceiling, the wait until the window ends. */
  async function takeAddressPoint(address: string): Promise<void> {
    try {
      await failuresByAddress.consume(address);
    } catch (refused) {
      if (refused instanceof RateLimiterRes) throw new TooManyAttemptsError(secondsOf(refused.msBeforeNext));
      throw refused;
    }
  }

  async function recordFailure(pair: string): Promise<void> {
    const { consumedPoints } = await failuresByPair.penalty(pair);
    const delay = delayAfterFailures(consumedPoints, settings);
    if (delay > 0) await waitByPair.block(pair, delay);
  }

  return {
    async check(account, address, verify) {
      const pair = `${account.toLowerCase()}|${address}`;
      await takeAddressPoint(address);
      let isFailure = false;
      try {
        const wait = await waitByPair.get(pair);
        if (wait && wait.msBeforeNext > 0) throw new TooManyAttemptsError(secondsOf(wait.msBeforeNext));
        const result = await verify();
        await Promise.all([failuresByPair.delete(pair), waitByPair.delete(pair)]);
        return result;
      } catch (error) {
        isFailure = isCredentialFailure(error);
        if (isFailure) await recordFailure(pair);
        throw error;
      } finally {
        // only failed checks count against the address
        if (!isFailure) await failuresByAddress.reward(address);
      }
    },
  };
}
