import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '@kickstand/platform/clock';
import { requestIdOf, securityHeaders } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';
import { processMetrics } from '@kickstand/platform/metrics';
import type { Chat } from '../chat';
import type { Notifier } from '../notifier';
import type { Tokens } from '../oauth/tokens';
import type { Repository } from '../repository';
import { RuleError } from '../rules';
import { asUserCaller } from './auth';
import { bearerOf } from './bearer';
import { addCall } from './call-recorder';
import { sendChatSchema, sentAnswer } from './chat-routes';
import { kickServerError } from './kick-errors';
import { kickErrorForRule } from './rule-errors';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const path = '/public/v1/chat';
/** express.json's limit on the Kick API ('100kb'). */
const bodyLimitBytes = 100 * 1024;
/** The content types express.json reads as UTF-8 JSON without a word; anything else goes to Express. */
const plainJsonTypes = new Set(['application/json', 'application/json; charset=utf-8']);
/** body-parser's strict mode: a JSON body must be an object or an array (its whitespace set). */
const firstNonBlank = /^[ \t\n\r]*([^ \t\n\r])/;

/**
 * The headers the platform's helmet (createHttpApp's `securityHeaders`) puts on every answer, in
 * its order, collected once from that same middleware.
 */
function collectSecurityHeaders(): string[] {
  const flat: string[] = [];
  const collector = {
    setHeader: (name: string, value: string | number) => flat.push(name, String(value)),
    removeHeader: () => undefined,
  };
  securityHeaders({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return flat;
}

/** Express's weak ETag (the `etag` package: length in hex, SHA-1 in base64 cut to 27). */
const etagOf = (body: Buffer) =>
  `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').substring(0, 27)}"`;

/** The body as express.json would give it, or undefined where it would refuse it (bad JSON, not an object or array). */
function parseLikeExpressJson(raw: Buffer): unknown {
  // iconv-lite (body-parser's decoder) drops a byte-order mark
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  const first = firstNonBlank.exec(text)?.[1];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A request whose body express.json would read as plain UTF-8 JSON within its limit. */
function isPlainJsonRequest(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  const encoding = req.headers['content-encoding'];
  const type = req.headers['content-type'];
  return (
    length !== undefined &&
    /^[1-9]\d{0,5}$/.test(length) &&
    Number(length) <= bodyLimitBytes &&
    req.headers['transfer-encoding'] === undefined &&
    (encoding === undefined || encoding.toLowerCase() === 'identity') &&
    type !== undefined &&
    plainJsonTypes.has(type.toLowerCase())
  );
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    // an aborted request (before or while its body came): nobody is left to answer
    req.on('error', () => resolve(null));
    req.on('close', () => {
      if (!req.complete) resolve(null);
    });
  });
}

/**
 * `POST /public/v1/chat` without Express (issue 22: the product posts every bot reply here, and
 * Express's stack was ~20 % of the sandbox's busy time): the token check, the body read and
 * parsed, §5.1's rules (chat.sendFromApi), the call recorded, the answer written with the headers
 * and bytes the Express route gives it (chat-routes.ts, under createHttpApp's helmet and request id).
 * Whatever is not the usual case goes to the Express route, before anything happened, so it
 * answers as it always did: a missing, unknown, expired or revoked token, an app token, a token
 * without chat:write, a query string, a body that is not plain UTF-8 JSON within the limit
 * (encoded, chunked, empty, other types or charsets), bad JSON and a body §5.1's schema refuses
 * (the body already read: express.json finds it read and leaves `req.body` as given here).
 * Rule errors of sendFromApi (quota, bans, real Kick's switches...) are answered here, in Kick's
 * envelope as kickErrorHandler does. Returns false for every other request.
 */
export function createLeanChatRoute(deps: {
  tokens: Pick<Tokens, 'authenticate'>;
  chat: Pick<Chat, 'sendFromApi'>;
  repo: Pick<Repository, 'calls'>;
  clock: Clock;
  log: Logger;
  notifier: Notifier;
  /** The Express app, for what this route does not answer itself. */
  viaExpress: Handler;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { tokens, chat, clock, log, viaExpress } = deps;
  const security = collectSecurityHeaders();
  const { httpRequestDuration } = processMetrics();

  function answer(req: IncomingMessage, res: ServerResponse, status: number, json: unknown, started: bigint): void {
    const body = Buffer.from(JSON.stringify(json));
    const requestId = requestIdOf(req);
    res.writeHead(status, [
      ...security,
      'x-request-id',
      requestId,
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      String(body.length),
      'ETag',
      etagOf(body),
    ]);
    res.end(body);
    httpRequestDuration.observe(
      { service: 'kick-sandbox', method: 'POST', route: path, status: String(status) },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
    // the quiet request log of createHttpApp: a line only for a failure
    if (status >= 400) {
      log.info(
        {
          requestId,
          req: { id: requestId, method: 'POST', url: path },
          res: { statusCode: status },
          responseTime: Number((process.hrtime.bigint() - started) / 1_000_000n),
        },
        'request completed',
      );
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const at = clock.now();
    if (!isPlainJsonRequest(req)) return viaExpress(req, res);
    const token = bearerOf(req);
    const context = token ? await tokens.authenticate(token) : null;
    const caller = context ? asUserCaller(context) : null;
    if (!caller?.scopes.includes('chat:write')) return viaExpress(req, res);
    const raw = await readBody(req);
    if (raw === null) return undefined;
    const body = parseLikeExpressJson(raw);
    const parsed = sendChatSchema.safeParse(body);
    if (!parsed.success) {
      if (body !== undefined) Object.assign(req, { body });
      return viaExpress(req, res);
    }
    let status = 200;
    let json: unknown;
    try {
      const message = await chat.sendFromApi(caller.userId, {
        type: parsed.data.type,
        content: parsed.data.content,
        broadcasterUserId: parsed.data.broadcaster_user_id,
        replyToMessageId: parsed.data.reply_to_message_id,
        acceptedAt: at,
      });
      json = sentAnswer(message);
    } catch (error) {
      if (error instanceof RuleError) {
        const kick = kickErrorForRule(error);
        status = kick.status;
        json = kick.body;
      } else {
        log.error({ err: error }, 'Kick API request failed');
        status = 500;
        json = kickServerError().body;
      }
    }
    addCall(deps, {
      at,
      endpoint: 'chat',
      method: 'POST',
      path,
      query: {},
      body,
      caller,
      status,
      errorBody: status >= 400 ? json : null,
    });
    answer(req, res, status, json, started);
    return undefined;
  }

  return (req, res) => {
    if (req.method !== 'POST' || req.url !== path) return false;
    serve(req, res).catch((error: unknown) => {
      log.error({ err: error }, 'Kick API request failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
    return true;
  };
}
