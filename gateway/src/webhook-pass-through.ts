import type { IncomingMessage, ServerResponse } from 'node:http';
import { createForwarder } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';

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
  const kickLink = createForwarder(target, { upstream: 'kick-link service', clientAddress: 'dropped', log });
  return {
    handle(req, res) {
      if (req.method !== 'POST') return false;
      const url = req.url ?? '';
      if (url !== kickWebhookPath && !url.startsWith(`${kickWebhookPath}?`)) return false;
      kickLink.http(req, res);
      return true;
    },
    close: () => kickLink.close(),
  };
}
