import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { KickWebhookDoor, WebhookAnswer } from '@kickstand/kick-link/front-door';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** An answer as bytes, with the headers Express's `res.json` gives it. */
interface PreparedAnswer {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

/** Express's `res.json` (its default weak ETag is the `etag` package's: length in hex, SHA-1 in base64 cut to 27). */
function prepare(status: number, extraHeaders: Readonly<Record<string, string>>, json: unknown): PreparedAnswer {
  const body = Buffer.from(JSON.stringify(json));
  const etag = `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').substring(0, 27)}"`;
  return {
    status,
    headers: {
      ...extraHeaders,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': body.length,
      ETag: etag,
    },
    body,
  };
}

/** What the platform's error handler answers for an error nobody expected (the door's checks do not throw). */
const failed = prepare(500, {}, { success: false, error: 'Internal server error' });

/**
 * Kick's webhook route (POST /api/kick/webhook) in the front door without Express: the body read
 * as Buffers up to the size limit, kick-link's door (the checks, the refusals counted, the hand-off
 * to the owner thread), the answer written as prepared bytes. The same answers as kick-link's
 * Express route (webhook-routes.ts), byte for byte, Date and X-Request-Id aside:
 * - a body over the limit (by its Content-Length, or once more bytes than that have come, chunked
 *   or not) is counted as refused at once and answered 413 once the request has ended, its bytes
 *   dropped as they come, as body-parser does (it reads the rest of the request before it answers);
 * - a client that goes away before the end of its body gets nothing and nothing is counted (Node
 *   answers an incomplete request 400 itself, as before);
 * - a body with a Content-Encoding (Kick sends none) goes to `viaExpress`, the Express route, which
 *   inflates gzip, deflate and br within the limit and refuses other encodings 415, as before.
 */
export function createPlainWebhookHandler(deps: {
  door: KickWebhookDoor;
  clock: Clock;
  log: Logger;
  viaExpress: Handler;
}): Handler {
  const { door, clock, log } = deps;
  const limit = door.bodyLimitBytes;
  const prepared = new Map<WebhookAnswer, PreparedAnswer>();

  function send(res: ServerResponse, answer: PreparedAnswer): void {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }

  function answerWith(res: ServerResponse, answer: WebhookAnswer): void {
    let bytes = prepared.get(answer);
    if (!bytes) {
      bytes = prepare(answer.status, answer.headers, answer.body);
      prepared.set(answer, bytes);
    }
    send(res, bytes);
  }

  return (req, res) => {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      deps.viaExpress(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    /** Set once the body is known to be over the limit: counted then, answered at the end. */
    let tooLarge: WebhookAnswer | undefined;
    const refuseTooLarge = () => {
      tooLarge = door.tooLarge();
      chunks.length = 0;
    };

    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) refuseTooLarge();
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      received += chunk.length;
      if (received > limit) refuseTooLarge();
      else chunks.push(chunk);
    });
    // an aborted request ends with 'error' and 'close', without 'end': nothing to answer, nothing counted
    req.on('error', () => (chunks.length = 0));
    req.on('end', () => {
      if (tooLarge) {
        answerWith(res, tooLarge);
        return;
      }
      // one chunk (a delivery's usual): its bytes as they came, not copied
      const rawBody = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
      chunks.length = 0;
      door.receive({ headers: req.headers, rawBody, receivedAt: clock.now() }).then(
        (answer) => answerWith(res, answer),
        (err: unknown) => {
          log.error({ err }, 'request failed');
          if (!res.headersSent) send(res, failed);
        },
      );
    });
  };
}
