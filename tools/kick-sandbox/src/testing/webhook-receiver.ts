import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  /** The exact bytes received: what a signature must be checked against. */
  rawBody: Buffer;
  body: unknown;
  receivedAt: number;
}

/**
 * A little HTTP server standing in for the product's webhook URL: records every delivery and
 * answers with the status a test chooses.
 */
export interface WebhookReceiver {
  url: string;
  deliveries: ReceivedDelivery[];
  /** The status for the next requests (default 200), or a function of the request count. */
  respondWith(status: number | ((index: number) => number)): void;
  /** Resolves once `count` deliveries match (all by default); rejects after `timeoutMs`. */
  waitFor(
    count: number,
    match?: (delivery: ReceivedDelivery) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery[]>;
  clear(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  let respond: (index: number) => number = () => 200;
  let requestCount = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      let body: unknown = null;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        body = null;
      }
      deliveries.push({ headers: req.headers, rawBody, body, receivedAt: Date.now() });
      res.statusCode = respond(requestCount);
      requestCount += 1;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/kick/webhook`,
    deliveries,
    respondWith(status) {
      respond = typeof status === 'number' ? () => status : status;
    },
    async waitFor(count, match = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = deliveries.filter(match);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} webhook deliveries, got ${matching.length} within ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    clear() {
      deliveries.length = 0;
      requestCount = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
