import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Dispatcher } from 'undici';

/**
 * One HTTP exchange with Kick on undici's `dispatch`: the request goes out, the whole answer comes
 * back as one buffer. Written on `dispatch` rather than `request` for one reason: the attempt's
 * deadline must start when the request is written to a connection. With `request`, a deadline
 * (its abort signal) starts at the call and so also counts the wait for one of the Agent's capped
 * connections; a reply that waited out its deadline in that queue failed as "Kick did not answer",
 * and chat-sender never posts such a reply again, because Kick might have taken it. It had not
 * even been sent. Here the wait for a connection has its own limit, and a request past it fails as
 * not sent (QueuedTooLongError) without being written. It also skips `request`'s stream per answer.
 */
export interface ExchangeRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body: string | undefined;
}

export interface ExchangeLimits {
  /** From the moment the request is written to a connection until the answer's last byte. */
  timeoutMs: number;
  /** How long the request may wait for a free connection before it is given up unsent; no limit when absent. */
  maxQueueWaitMs?: number;
}

/** Header names in lower case, as undici parses them. */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

export interface CollectedAnswer {
  statusCode: number;
  headers: AnswerHeaders;
  body: Buffer;
  /**
   * From the call until the request was written: mostly the rest of the event loop's turn (undici
   * writes on a reused connection in the check phase), plus any wait for a free connection and a connect.
   */
  queuedMs: number;
}

/** The attempt's deadline passed after the request was written: Kick may have taken it. */
export class AttemptTimedOutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimedOutError';
  }
}

/** The request waited for a connection longer than allowed and was never written. */
export class QueuedTooLongError extends Error {
  constructor(waitedMs: number) {
    super(`it waited ${Math.round(waitedMs)} ms for a free connection to Kick`);
    this.name = 'QueuedTooLongError';
  }
}

/** The answer's status and headers came, then its body stopped (closed, reset or timed out). */
export class AnswerCutOffError extends Error {
  constructor(cause: Error) {
    super(`the answer was cut off: ${cause.message}`, { cause });
    this.name = 'AnswerCutOffError';
  }
}

export function exchange(
  dispatcher: Dispatcher,
  request: ExchangeRequest,
  limits: ExchangeLimits,
): Promise<CollectedAnswer> {
  return new Promise<CollectedAnswer>((resolve, reject) => {
    const queuedAt = performance.now();
    let queuedMs = 0;
    let timer: NodeJS.Timeout | undefined;
    let statusCode = 0;
    let headers: AnswerHeaders = {};
    const chunks: Buffer[] = [];
    let isSettled = false;
    const settle = () => {
      isSettled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
    const handler: Dispatcher.DispatchHandler = {
      // called when the request is about to be written to a connection (again, for an idempotent
      // request undici retries on a fresh one): the deadline is set at the first
      onRequestStart(controller) {
        if (timer !== undefined) return;
        const waitedMs = performance.now() - queuedAt;
        if (limits.maxQueueWaitMs !== undefined && waitedMs > limits.maxQueueWaitMs) {
          controller.abort(new QueuedTooLongError(waitedMs));
          return;
        }
        queuedMs = waitedMs;
        timer = setTimeout(() => controller.abort(new AttemptTimedOutError(limits.timeoutMs)), limits.timeoutMs);
      },
      onResponseStart(_controller, status, responseHeaders) {
        // a 1xx is informational: the final answer follows on the same request
        if (status < 200) return;
        statusCode = status;
        headers = responseHeaders;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (isSettled) return;
        settle();
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        resolve({ statusCode, headers, body, queuedMs });
      },
      onResponseError(_controller, error) {
        if (isSettled) return;
        settle();
        reject(statusCode !== 0 && !(error instanceof QueuedTooLongError) ? new AnswerCutOffError(error) : error);
      },
    };
    try {
      dispatcher.dispatch({ ...request, body: request.body ?? null }, handler);
    } catch (error) {
      settle();
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** The answer's text, decoded when an edge compressed it anyway (no `accept-encoding` is sent). */
export function decodeText(answer: CollectedAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === undefined || encoding === 'identity') return answer.body.toString('utf8');
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(answer.body).toString('utf8');
  if (encoding === 'deflate') return inflateSync(answer.body).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  throw new Error(`unknown content-encoding ${String(encoding)}`);
}

/** A header's first value, or null. */
export function headerOf(headers: AnswerHeaders, name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
