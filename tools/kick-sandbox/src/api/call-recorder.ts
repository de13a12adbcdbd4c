import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { Notifier } from '../notifier';
import type { Repository } from '../repository';
import type { TokenContext } from '../oauth/tokens';

const secretFields = new Set(['client_secret', 'code', 'code_verifier', 'refresh_token', 'access_token', 'token']);

/** Who called, set by the bearer check so the recorded call can say which token kind was used. */
const callers = new WeakMap<Request, TokenContext>();

export const rememberCaller = (req: Request, context: TokenContext): void => {
  callers.set(req, context);
};

export const callerOf = (req: Request): TokenContext | undefined => callers.get(req);

/** When a recorded call arrived: the first thing the API host does with a request. */
const arrivals = new WeakMap<Request, Date>();

/**
 * When the call reached the API host (before its token check, body parsing and store work): the
 * moment Kick accepts a chat line, so the line's `createdAt` does not include the sandbox's own queueing.
 */
export const arrivalOf = (req: Request): Date | undefined => arrivals.get(req);

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, secretFields.has(key) ? '[redacted]' : redact(inner)]),
  );
}

/**
 * Records every call the product makes to a Kick endpoint (for "what did the product do?"
 * assertions): endpoint, token kind, request without secrets, status, and the error body if any.
 * The record is kept (in memory, records.ts) as the answer leaves, so a test that got its answer
 * can read the call; the answer no longer waits for a store write.
 */
export function recordCalls(
  deps: { repo: Repository; clock: Clock; log: Logger; notifier: Notifier },
  endpointOf: (req: Request) => string,
): RequestHandler {
  return (req, res, next) => {
    const at = deps.clock.now();
    arrivals.set(req, at);
    let errorBody: unknown = null;
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      if (res.statusCode >= 400) errorBody = body;
      return json(body);
    };
    const end = res.end.bind(res) as (...args: unknown[]) => unknown;
    res.end = ((...args: unknown[]) => {
      const caller = callerOf(req);
      addCall(deps, {
        at,
        endpoint: endpointOf(req),
        method: req.method,
        path: req.originalUrl.split('?')[0] ?? req.originalUrl,
        query: { ...req.query },
        body: req.body,
        caller,
        status: res.statusCode,
        errorBody,
      });
      return end(...args);
    }) as typeof res.end;
    next();
  };
}

/** One answered call, as recordCalls and the lean POST /chat route (lean-chat.ts) both keep it. */
export interface AnsweredCall {
  at: Date;
  endpoint: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  /** undefined: the parser did not read the body (wrong content type, bad JSON). */
  body: unknown;
  caller: TokenContext | undefined;
  status: number;
  /** The JSON body of an answer with status >= 400, else null. */
  errorBody: unknown;
}

export function addCall(
  deps: { repo: Pick<Repository, 'calls'>; log: Logger; notifier: Notifier },
  call: AnsweredCall,
): void {
  try {
    deps.repo.calls.add({
      _id: randomUUID(),
      at: call.at,
      endpoint: call.endpoint,
      method: call.method,
      path: call.path,
      queryJson: JSON.stringify(redact(call.query)),
      // a body the parser did not read (wrong content type, bad JSON) is recorded as null
      bodyJson: call.body === undefined ? null : JSON.stringify(redact(call.body)),
      tokenType: call.caller?.tokenType ?? null,
      tokenUserId: call.caller?.userId ?? null,
      status: call.status,
      error: redact(call.errorBody),
    });
    deps.notifier.notify('calls');
  } catch (err) {
    deps.log.warn({ err }, 'could not record a Kick API call');
  }
}
