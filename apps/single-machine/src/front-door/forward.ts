import { Agent, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestIdOf } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';

export interface Forwarder {
  http(req: IncomingMessage, res: ServerResponse): void;
  /** A websocket upgrade, piped both ways once the upstream switched protocols. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes the kept-alive connections. */
  close(): void;
}

// hop-by-hop: about this connection, not the request (RFC 9110 §7.6.1)
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/**
 * The client's address is appended to X-Forwarded-For, as any proxy does: the owner thread trusts
 * loopback on top of TRUST_PROXY (trustBehindFrontDoor), so `req.ip` there is what it would have
 * been had the client reached it directly.
 */
function forwardedFor(req: IncomingMessage): string {
  const given = req.headers['x-forwarded-for'];
  const address = req.socket.remoteAddress ?? '';
  return typeof given === 'string' && given !== '' ? `${given}, ${address}` : address;
}

/**
 * Streams requests to one loopback upstream (the owner thread's gateway, or realtime), bodies and
 * answers untouched, over kept-alive connections; 502 when it cannot be reached.
 */
export function createForwarder(target: string, upstream: string, log: Logger): Forwarder {
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

  function headersOf(req: IncomingMessage, keepUpgrade: boolean): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || (!keepUpgrade && hopByHop.has(name))) continue;
      headers[name] = value;
    }
    headers['x-forwarded-for'] = forwardedFor(req);
    return headers;
  }

  function unreachable(error: unknown, res: ServerResponse, url: string | undefined): void {
    log.warn({ err: error, upstream, url }, 'upstream unreachable');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, error: `The ${upstream} is unavailable. Please try again shortly.` }));
  }

  return {
    http(req, res) {
      const headers = headersOf(req, false);
      headers['x-request-id'] = requestIdOf(req);
      const outgoing = request({ hostname, port, method: req.method, path: req.url, headers, agent });
      outgoing.on('response', (answer) => {
        const answerHeaders: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !hopByHop.has(name)) answerHeaders[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
        answer.pipe(res);
      });
      let isAbandoned = false;
      outgoing.on('error', (error) => {
        if (!isAbandoned) unreachable(error, res, req.url);
      });
      // the caller went away before the answer: the upstream request goes too
      res.on('close', () => {
        if (res.writableFinished) return;
        isAbandoned = true;
        outgoing.destroy();
      });
      req.pipe(outgoing);
    },

    upgrade(req, socket, head) {
      const outgoing = request({ hostname, port, method: req.method, path: req.url, headers: headersOf(req, true) });
      socket.on('error', () => outgoing.destroy());
      outgoing.on('error', (error) => {
        log.warn({ err: error, upstream, url: req.url }, 'upstream unreachable (upgrade)');
        socket.destroy();
      });
      // the upstream answered without switching protocols (e.g. 400): that answer goes back as it is
      outgoing.on('response', (answer) => {
        socket.write(statusLine(answer) + headerLines(answer.rawHeaders) + '\r\n');
        answer.pipe(socket);
      });
      outgoing.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
        upstreamSocket.setNoDelay(true);
        upstreamSocket.setTimeout(0);
        socket.write(statusLine(answer) + headerLines(answer.rawHeaders) + '\r\n');
        if (upstreamHead.length > 0) socket.write(upstreamHead);
        if (head.length > 0) upstreamSocket.write(head);
        upstreamSocket.on('error', () => socket.destroy());
        socket.on('close', () => upstreamSocket.destroy());
        upstreamSocket.on('close', () => socket.destroy());
        upstreamSocket.pipe(socket).pipe(upstreamSocket);
      });
      outgoing.end();
    },

    close: () => agent.destroy(),
  };
}

const statusLine = (answer: IncomingMessage) =>
  `HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}\r\n`;

function headerLines(raw: string[]): string {
  let lines = '';
  for (let i = 0; i + 1 < raw.length; i += 2) lines += `${raw[i]}: ${raw[i + 1]}\r\n`;
  return lines;
}
