import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { ServiceName } from '@kickstand/platform/config';
import type { Logger } from '@kickstand/platform/log';

export interface ServiceProxy {
  handle: RequestHandler;
  upgrade: (req: IncomingMessage, socket: Socket, head: Buffer) => void;
  /** Closes the kept-alive connections to the service. */
  close: () => void;
}

/**
 * One proxy per upstream service. Mounted without a path so that req.url reaches the service
 * unchanged; bodies are streamed untouched (the gateway never parses them).
 */
export function createServiceProxy(service: ServiceName, target: string, log: Logger): ServiceProxy {
  // http-proxy opens a new connection for every request unless given an agent: at the rate of
  // chat (a webhook per chat line) connecting cost more than the request itself
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  const proxy = createProxyMiddleware<IncomingMessage & { id?: unknown; ip?: unknown }, ServerResponse>({
    target,
    agent,
    ws: service === 'realtime',
    xfwd: true,
    proxyTimeout: 30_000,
    on: {
      proxyReq: (proxyReq, req) => {
        if (typeof req.id === 'string') proxyReq.setHeader('x-request-id', req.id);
        // The services trust the gateway's X-Forwarded-For (TRUST_PROXY): it carries the client's
        // address as the gateway's own TRUST_PROXY reads it, never what the client wrote, or a
        // forged header would pick the address auth's per-address limits count.
        if (typeof req.ip === 'string') proxyReq.setHeader('x-forwarded-for', req.ip);
      },
      error: (error, req, res) => {
        log.warn({ err: error, upstream: service, url: req.url }, 'upstream unreachable');
        // For websocket upgrades `res` is the raw socket: there is no HTTP answer to give.
        if (!('writeHead' in res)) {
          (res as Socket).destroy();
          return;
        }
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
        }
        res.end(
          JSON.stringify({ success: false, error: `The ${service} service is unavailable. Please try again shortly.` }),
        );
      },
    },
  });
  return {
    handle: proxy as unknown as RequestHandler,
    upgrade: (req, socket, head) => proxy.upgrade(req, socket, head),
    close: () => agent.destroy(),
  };
}
