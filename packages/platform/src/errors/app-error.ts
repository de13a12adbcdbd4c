/**
 * The one error vocabulary. Domain code throws AppError through the small factories below; the
 * HTTP error handler turns it into `{ success: false, error }` with its status.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: readonly ErrorDetail[];
  /** Answered as `Retry-After` (seconds): a deliberate "try again later" (503, 429). */
  readonly retryAfterSeconds?: number;

  constructor(options: {
    code: string;
    message: string;
    status?: number;
    details?: readonly ErrorDetail[];
    retryAfterSeconds?: number;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.name = 'AppError';
    this.code = options.code;
    this.status = options.status ?? 500;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export interface ErrorDetail {
  path: string;
  message: string;
}

export const validationFailed = (details: readonly ErrorDetail[]) =>
  new AppError({ code: 'validation-failed', status: 400, message: details[0]?.message ?? 'Invalid request', details });
export const badRequest = (message: string) => new AppError({ code: 'bad-request', status: 400, message });
export const unauthorized = (message = 'Authentication required') =>
  new AppError({ code: 'unauthorized', status: 401, message });
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError({ code: 'forbidden', status: 403, message });
export const notFound = (message = 'Not found') => new AppError({ code: 'not-found', status: 404, message });
export const conflict = (message: string) => new AppError({ code: 'conflict', status: 409, message });
/** A deliberate, temporary refusal (503 with Retry-After): busy, not our bug. */
export const unavailable = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError({ code, status: 503, message, retryAfterSeconds });
