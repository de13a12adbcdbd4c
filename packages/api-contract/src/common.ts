import { z } from 'zod';

/**
 * What every failed call answers (the platform's error handler): the first problem in `error`,
 * and for a request that failed validation every problem in `details`.
 */
export const errorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ title: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** `{ success: true, data }`, with the spec's success text in `message` where the call has one. */
export function dataReply<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, message: z.string().optional() });
}

/** `{ success: true, message, data }`: a change, told in the spec's words. */
export function messageReply<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string(), data });
}

/** The envelope around `data` as the SPA reads it. */
export interface ApiSuccess<T> {
  success: true;
  data: T;
  message?: string;
}

/** ISO 8601 date and time, as every date travels in JSON. */
export const isoDateTime = () => z.iso.datetime({ offset: true });

export const paginationSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    pages: z.number().int(),
  })
  .meta({ title: 'Pagination' });
export type Pagination = z.infer<typeof paginationSchema>;

/** A query-string page number: `Page must be a whole number of 1 or more`. */
export const pageQuery = (max?: number) => {
  const message = 'Page must be a whole number of 1 or more';
  const page = z.coerce.number({ error: message }).int(message).min(1, message);
  return (max === undefined ? page : page.max(max, message)).default(1);
};

/** A query-string page size: `Limit must be a whole number from 1 to {max}`. */
export const limitQuery = (max: number, byDefault: number) => {
  const message = `Limit must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).default(byDefault);
};

/** A query-string flag: `true` or `false`. */
export const booleanQuery = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be true or false` }).transform((value) => value === 'true');

/** A call that takes no query parameters (an unknown one is a 400). */
export const noQuerySchema = z.strictObject({});

/** A user id in a path (`:id`). */
export const userIdParamsSchema = z.object({ id: z.string().min(1).max(128) });

/** What `JSON.stringify` makes of T: dates become ISO strings (services keep `Date`s in their views). */
export type Serialized<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Serialized<U>[]
    : T extends object
      ? { [K in keyof T]: Serialized<T[K]> }
      : T;

/**
 * `true` when A and B are the same type, else `never`: `const _same: SameType<A, B> = true` fails to
 * compile when a service's view and the contract's reply drift apart.
 */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
