import { randomInt } from 'node:crypto';

/** The randomness port: a whole number from min to max, both included. Rules take it as an argument. */
export interface Random {
  intBetween(min: number, max: number): number;
}

/** The Random adapter for production (node:crypto); tests pass a scripted one. */
export const systemRandom: Random = { intBetween: (min, max) => randomInt(min, max + 1) };
