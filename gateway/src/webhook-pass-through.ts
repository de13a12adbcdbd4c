import { Agent, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Logger } from '@kickstand/platform/log';
import { requestIdOf } from '@kickstand/platform/http';

/** Kick's webhook door on kick-link (kick-api.md §8.6); public in the route table. */
export const kickWebhookPath = '/api/kick/webhook';

export interface WebhookPassThrough {
  /** Forwards the request and returns true when it is a webhook delivery; false leaves it to the app. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Closes the kept-alive connections to kick-link. */
  close(): void;
}

/**
 * Kick's webhook deliveries, one per chat line of every channel, go to kick-link without the
 * gateway's Express app and http-proxy: the delivery is public (no token to check), its body is
 * streamed untouched (kick-link checks the signature over the exact bytes and the size limit),
 * and kick-link's answer comes back as it is. The app's work per request (security headers, the
 * request log, routing, the proxy's event plumbing) cost the gateway about as much as forwarding
 * itself (docs/performance.md). What stays: the request id (the caller's when sane, else a new one,
 * forwarded and answered), a 502 when kick-link cannot be reached, and no client-written
 * X-Forwarded-* header reaching kick-link (the door does not need the client's address).
 */
export function createWebhookPassThrough(target: string, log: Logger): WebhookPassThrough {
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

  function forward(req: IncomingMessage, res: ServerResponse): void {
    const requestId = requestIdOf(req);
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !name.startsWith('x-forwarded-') && name !== 'connection') headers[name] = value;
    }
    headers['x-request-id'] = requestId;
    const upstream = request({ hostname, port, method: 'POST', path: req.url, headers, agent });
    upstream.on('response', (answer) => {
      const answerHeaders: OutgoingHttpHeaders = { ...answer.headers, 'x-request-id': requestId };
      delete answerHeaders.connection;
      delete answerHeaders['keep-alive'];
      res.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.pipe(res);
    });
    let isAbandoned = false;
    upstream.on('error', (error) => {
      if (isAbandoned) return; // the caller left first: not kick-link's fault
      log.warn({ err: error, upstream: 'kick-link', url: req.url, requestId }, 'upstream unreachable');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'application/json', 'x-request-id': requestId });
      res.end(
        JSON.stringify({ success: false, error: 'The kick-link service is unavailable. Please try again shortly.' }),
      );
    });
    // the caller went away before the answer: kick-link's request goes too
    res.on('close', () => {
      if (res.writableFinished) return;
      isAbandoned = true;
      upstream.destroy();
    });
    req.pipe(upstream);
  }

  return {
    handle(req, res) {
      if (req.method !== 'POST') return false;
      const url = req.url ?? '';
      if (url !== kickWebhookPath && !url.startsWith(`${kickWebhookPath}?`)) return false;
      forward(req, res);
      return true;
    },
    close: () => agent.destroy(),
  };
}
