import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../log';
import { AppError } from '../errors';

export interface ErrorBody {
  success: false;
  error: string;
  details?: readonly { path: string; message: string }[];
}

interface ClientError {
  status: number;
  message: string;
}

/** body-parser marks most of its errors with a `type`; the message says what was wrong with the request. */
const bodyParserMessages: Readonly<Record<string, string>> = {
  'entity.parse.failed': 'Request body is not valid JSON',
  'entity.too.large': 'Request body is too large',
  'encoding.unsupported': 'Unsupported request body encoding',
  'charset.unsupported': 'Unsupported request body encoding',
  'request.aborted': 'Request was aborted',
  'request.size.invalid': 'Request body size does not match Content-Length',
};

function fieldOf(error: object, key: string): unknown {
  return (error as Record<string, unknown>)[key];
}

/**
 * The request's own fault, with the status to answer, or undefined for our bug / an outage.
 * - body-parser's and the router's errors (http-errors) carry a 4xx `status`/`statusCode`: an
 *   undecodable gzip body is a 400, an unknown Content-Encoding a 415, an oversized body a 413;
 * - a URIError is a path that does not percent-decode (`%ZZ`): the router marks its own 400, and
 *   one thrown by other decoding of the URL is the client's too.
 * The message is ours, never the error's (which may quote internals like zlib's).
 */
function clientErrorOf(error: unknown): ClientError | undefined {
  if (error instanceof URIError) return { status: 400, message: 'Request path is not valid (bad percent-encoding)' };
  if (typeof error !== 'object' || error === null) return undefined;
  const declared = fieldOf(error, 'status') ?? fieldOf(error, 'statusCode');
  if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 400 || declared > 499) {
    return undefined;
  }
  const type = fieldOf(error, 'type');
  const known = typeof type === 'string' ? bodyParserMessages[type] : undefined;
  if (known) return { status: declared, message: known };
  const code = fieldOf(error, 'code');
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return { status: declared, message: 'Request body could not be decompressed' };
  }
  return { status: declared, message: STATUS_CODES[declared] ?? 'Bad request' };
}

function answerAppError(error: AppError, res: Parameters<ErrorRequestHandler>[2]): void {
  const body: ErrorBody = { success: false, error: error.message };
  if (error.details) body.details = error.details;
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status).json(body);
}

export function createErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof AppError) {
      // a deliberate 5xx (503 "busy, try again") keeps its status, message and Retry-After
      if (error.status >= 500) (req.log ?? log).warn({ err: error }, 'request refused by the service');
      answerAppError(error, res);
      return;
    }
    const clientError = clientErrorOf(error);
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
