import type { Request } from 'express';
import type { z } from 'zod';
import { validationFailed, type ErrorDetail } from '../errors';

function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details: ErrorDetail[] = result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    throw validationFailed(details);
  }
  return result.data;
}

/** The typed body, or a 400 `{ success:false, error:<first message>, details }` through the error handler. */
export const parseBody = <S extends z.ZodType>(schema: S, req: Request): z.infer<S> =>
  parseWith(schema, req.body ?? {});
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request): z.infer<S> => parseWith(schema, req.query);
export const parseParams = <S extends z.ZodType>(schema: S, req: Request): z.infer<S> => parseWith(schema, req.params);
