import { randomInt } from 'node:crypto';
import * as argon2 from 'argon2';
import { passwordMessages, passwordRuleProblem } from '@kickstand/api-contract';
import { commonPasswordList } from './common-passwords';

// The spec's rules, the length caps and their messages are the HTTP contract's (the SPA checks them too).
export { maxPasswordLength, maxSignInPasswordLength } from '@kickstand/api-contract';
/** Messages beside the spec's, in the spec's style. */
export const passwordPolicyMessages = {
  tooLong: passwordMessages.tooLong,
  tooCommon: passwordMessages.tooCommon,
} as const;

/** The password lower-cased, then without the symbols, then without the digits and symbols around it. */
function commonCores(password: string): string[] {
  const lower = password.toLowerCase();
  const withoutSymbols = lower.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  const withoutDigitsOrSymbols = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  return [lower, withoutSymbols, withoutDigitsOrSymbols];
}

/**
 * True when the password is, or decorates, one of the common passwords. The list is all lower case
 * and almost nothing in it meets the spec's rules as is: people meet them by decorating a common
 * password ("Password1!", "Dragon2024!"), and attackers try exactly those decorations first, so
 * `commonCores` undoes them before the look-up.
 */
export function isCommonPassword(password: string): boolean {
  const list = commonPasswordList();
  return commonCores(password).some((core) => list.has(core));
}

/**
 * Why a new password is refused, or undefined: the spec's rules first (their messages word for
 * word, first broken rule wins), then the length cap, then the common-password list.
 */
export function passwordProblem(password: string): string | undefined {
  const ruleProblem = passwordRuleProblem(password);
  if (ruleProblem) return ruleProblem;
  if (isCommonPassword(password)) return passwordPolicyMessages.tooCommon;
  return undefined;
}

export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's minimum recommendation for argon2id: m=19456 KiB (19 MiB), t=2, p=1. */
export const owaspArgon2Params: Readonly<Argon2Params> = Object.freeze({
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
});

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /**
   * Spends the time of one verification against a hash that matches nothing, so a sign-in with an
   * unknown email takes about as long as one with a wrong password.
   */
  verifyNothing(password: string): Promise<void>;
}

export function createPasswordHasher(params: Argon2Params = owaspArgon2Params): PasswordHasher {
  const hash = (password: string) => argon2.hash(password, { type: argon2.argon2id, ...params });
  let dummyHash: Promise<string> | undefined;
  const verify = async (stored: string, password: string): Promise<boolean> => {
    try {
      return await argon2.verify(stored, password);
    } catch {
      // a damaged stored hash never signs anyone in
      return false;
    }
  };
  return {
    hash,
    verify,
    verifyNothing: async (password) => {
      dummyHash ??= hash(generatePassword());
      await verify(await dummyHash, password);
    },
  };
}

const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const lower = 'abcdefghijkmnopqrstuvwxyz';
const digits = '23456789';
const specials = '!@#$%^&*-_=+?';
const anyCharacter = upper + lower + digits + specials;

const pick = (alphabet: string): string => alphabet.charAt(randomInt(alphabet.length));

/** A random password from the OS's CSPRNG that meets every rule (one of each class, then random). */
export function generatePassword(length = 20): string {
  const characters = [pick(upper), pick(lower), pick(digits), pick(specials)];
  while (characters.length < length) characters.push(pick(anyCharacter));
  // Fisher–Yates, so the guaranteed classes are not always at the front
  for (let i = characters.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [characters[i], characters[j]] = [characters[j] as string, characters[i] as string];
  }
  return characters.join('');
}
