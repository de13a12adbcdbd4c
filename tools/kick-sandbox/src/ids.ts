import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';

// Crockford's base32: no I, L, O, U, so ids survive being read aloud or retyped.
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const randomBits = 80n;
const randomMask = (1n << randomBits) - 1n;

export const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

function encode(value: bigint, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i += 1) {
    out = crockford[Number(rest % 32n)] + out;
    rest /= 32n;
  }
  return out;
}

/**
 * A ULID source (48-bit millisecond time + 80 random bits, 26 chars). Monotonic within one
 * process: ids made in the same millisecond (or while the clock steps back) still sort in the
 * order they were made, which keeps listings ordered by id meaningful.
 */
export function createUlidFactory(): (nowMs: number) => string {
  let lastTime = -1;
  let lastRandom = 0n;
  return (nowMs) => {
    const time = Math.max(Math.floor(nowMs), lastTime);
    if (time === lastTime) {
      lastRandom = (lastRandom + 1n) & randomMask;
    } else {
      lastTime = time;
      lastRandom = BigInt(`0x${randomBytes(10).toString('hex')}`);
    }
    return encode(BigInt(time), 10) + encode(lastRandom, 16);
  };
}

/** Kick chat message ids are UUID strings. */
export const newMessageUuid = (): string => randomUUID();

/** Kick user ids are plain integers; 8 digits looks like a recent account. */
export const newKickUserId = (): number => randomInt(10_000_000, 100_000_000);

/** Opaque, URL-safe random string for tokens, codes and pending-request ids. */
export const newOpaqueSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Secrets are stored by hash only, so a copied datafile or a log line never holds a usable token. */
export const hashSecret = (value: string): string => createHash('sha256').update(value).digest('hex');
