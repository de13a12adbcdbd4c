import { z } from 'zod';

/** Kick user ids in a query string: positive integers written in digits. */
export const queryUserId = z
  .string()
  .regex(/^[1-9]\d{0,14}$/)
  .transform(Number);

/** A repeatable query parameter (`?id=1&id=2`): Express gives a string for one, an array for several. */
export const repeatable = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(item).min(1));

/** JSON body ids: integers, not numeric strings (Kick's server is strictly typed). */
export const bodyUserId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
