import type { ErrorRequestHandler } from 'express';
import { AppError, badRequest } from '@kickstand/platform/errors';

/**
 * The status Express's own machinery put on an error the client caused: body-parser's errors
 * (bad JSON, too large) and the router's (a path parameter like `%ZZ` that does not decode).
 */
export function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || error instanceof AppError) return undefined;
  const status = 'status' in error ? error.status : 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * For routers answered by the platform's error handler, which makes any non-AppError a 500: a
 * client's malformed request becomes a 400 `{ success: false, error }` instead.
 */
export const clientErrorsAsBadRequest: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  const status = clientErrorStatus(error);
  if (status === undefined || (typeof error === 'object' && error !== null && 'type' in error)) {
    // body-parser's errors carry a type and the platform handler already answers them well
    next(error);
    return;
  }
  next(
    status === 400
      ? badRequest('The request is malformed')
      : new AppError({ code: 'client-error', status, message: 'The request was refused' }),
  );
};
