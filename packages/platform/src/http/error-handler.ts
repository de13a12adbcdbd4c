import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../log';
import { AppError } from '../errors';

export interface ErrorBody {
  success: false;
  error: string;
  details?: readonly { path: string; message: string }[];
}

/** body-parser marks its own errors with a `type`; they are the client's fault, not ours. */
function bodyParserError(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== 'object' || error === null || !('type' in error)) return undefined;
  switch ((error as { type: unknown }).type) {
    case 'entity.parse.failed':
      return { status: 400, message: 'Request body is not valid JSON' };
    case 'entity.too.large':
      return { status: 413, message: 'Request body is too large' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, message: 'Unsupported request body encoding' };
    case 'request.aborted':
      return { status: 400, message: 'Request was aborted' };
    default:
      return undefined;
  }
}

export function createErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof AppError && error.status < 500) {
      const body: ErrorBody = { success: false, error: error.message };
      if (error.details) body.details = error.details;
      res.status(error.status).json(body);
      return;
    }
    const clientError = bodyParserError(error);
    if (clientError) {
      res.status(clientError.status).json({ success: false, error: clientError.message } satisfies ErrorBody);
      return;
    }
    // Anything else is our bug or an outage: log it with the request id, never show the stack.
    (req.log ?? log).error({ err: error }, 'request failed');
    res.status(500).json({ success: false, error: 'Internal server error' } satisfies ErrorBody);
  };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ success: false, error: `Not found: ${req.method} ${req.path}` } satisfies ErrorBody);
};
