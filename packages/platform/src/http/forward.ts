import { Agent, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log';
import { requestIdOf } from './request-id';

export interface Forwarder {
  http(req: IncomingMessage, res: ServerResponse): void;
  /** A websocket upgrade, piped both ways once the upstream switched protocols. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes the kept-alive connections. */
  close(): void;
}

// hop-by-hop: about this connection, not the request (RFC 9110 §7.6.1)
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/** The client's address appended to X-Forwarded-For, as any proxy does. */
function forwardedFor(req: IncomingMessage): string {
  const given = req.headers['x-forwarded-for'];
  const address = req.socket.remoteAddress ?? '';
  return typeof given === 'string' && given !== '' ? `${given}, ${address}` : address;
}

export interface ForwarderOptions {
  /** Named in the log and in the 502's message ("The <upstream> is unavailable…"). */
  upstream: string;
  /**
   * `appended`: the client's address is added to X-Forwarded-For (an upstream that trusts this hop
   * sees the client's address as `req.ip`); `dropped`: no X-Forwarded-* header reaches the upstream
   * (one that does not need the client's address, such as Kick's webhook door).
   */
  clientAddress: 'appended' | 'dropped';
  log: Logger;
}

/**
 * Streams requests to one loopback upstream, bodies and answers untouched, over kept-alive
 * connections, with the request id (the caller's when sane, else a new one) sent and answered;
 * 502 when it cannot be reached. Hand-written rather than http-proxy: for the chat-rate paths
 * (Kick's webhooks, socket.io) http-proxy's event plumbing cost as much as the forwarding itself
 * (docs/performance.md).
 */
export function createForwarder(target: string, options: ForwarderOptions): Forwarder {
  const { upstream, log } = options;
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

  function headersOf(req: IncomingMessage, keepUpgrade: boolean): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || (!keepUpgrade && hopByHop.has(name))) continue;
      if (options.clientAddress === 'dropped' && name.startsWith('x-forwarded-')) continue;
      headers[name] = value;
    }
    if (options.clientAddress === 'appended') headers['x-forwarded-for'] = forwardedFor(req);
    return headers;
  }

  function unreachable(error: unknown, res: ServerResponse, url: string | undefined, requestId: string): void {
    log.warn({ err: error, upstream, url, requestId }, 'upstream unreachable');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(502, { 'content-type': 'application/json', 'x-request-id': requestId });
    res.end(JSON.stringify({ success: false, error: `The ${upstream} is unavailable. Please try again shortly.` }));
  }

  return {
    http(req, res) {
      const requestId = requestIdOf(req);
      const headers = headersOf(req, false);
      headers['x-request-id'] = requestId;
      const outgoing = request({ hostname, port, method: req.method, path: req.url, headers, agent });
      outgoing.on('response', (answer) => {
        const answerHeaders: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !hopByHop.has(name)) answerHeaders[name] = value;
        }
        answerHeaders['x-request-id'] = requestId;
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
        answer.pipe(res);
      });
      let isAbandoned = false;
      outgoing.on('error', (error) => {
        if (!isAbandoned) unreachable(error, res, req.url, requestId); // else the caller left first: not the upstream's fault
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
