import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { closeServer, listen } from '../http/listen';

/** What every service factory returns: `createXService(deps) → { app, start, stop }`, no I/O at import. */
export interface Service {
  app: Express;
  /** Subscribes to the bus, creates indexes, starts timers. */
  start(): Promise<void>;
  /** Stops only what start() started (in single-machine mode the bus and stores are shared). */
  stop(): Promise<void>;
  /** HTTP upgrade requests (websockets), for the gateway's socket.io proxy. */
  onUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Called with the HTTP server before it listens, for libraries that hook into it (socket.io). */
  attach?(server: Server): void;
  /**
   * Sees each request before the app and returns true when it answered it (the gateway's webhook
   * pass-through: chat-rate traffic that needs none of the app's middleware).
   */
  handleFirst?(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * socket.io's own entry points (realtime), for an HTTP server of the same process other than
   * the service's (the gateway in single-machine mode): its /socket.io requests and upgrades are
   * served there without the loopback hop. Usable once `attach` has run.
   */
  socketIo?: SocketIoEntry;
}

/** Serves socket.io requests (polling) and websocket upgrades that arrived on another HTTP server. */
export interface SocketIoEntry {
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export interface RunningService {
  server: Server;
  port: number;
  /** Stops taking requests, lets requests in flight finish (briefly), then stops the service. */
  stop(): Promise<void>;
}

/** Liveness is answered while the service starts; every other request waits for the start to end. */
function isLivenessProbe(req: IncomingMessage): boolean {
  return req.url === '/healthz' || req.url?.startsWith('/healthz?') === true;
}

function answerStarting(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
  res.end(JSON.stringify({ success: false, error: 'Service is starting' }));
}

/**
 * Listens first, then starts the service (subscriptions, indexes, timers) and resolves once both
 * are done. Meanwhile /healthz answers (the process is alive: nothing restarts it for a slow start)
 * and every other request, /readyz included, gets 503 "Service is starting".
 */
export async function startHttpService(
  service: Service,
  options: { port: number; host?: string; onListening?: (port: number) => void },
): Promise<RunningService> {
  let isStarted = false;
  const server = createServer((req, res) => {
    if (isStarted && service.handleFirst?.(req, res)) return;
    if (isStarted || isLivenessProbe(req)) service.app(req, res);
    else answerStarting(res);
  });
  // Keep-alive sockets from the gateway's proxy must outlive its own idle timeout, or requests race a close.
  server.keepAliveTimeout = 65_000;
  // server.close() waits for upgraded (websocket) connections, which closeAllConnections() does not
  // end: they are tracked here and closed first, or a stop would hang while a dashboard is open.
  const upgraded = new Set<Duplex>();
  if (service.onUpgrade || service.attach) {
    server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
    });
  }
  if (service.onUpgrade) server.on('upgrade', service.onUpgrade);
  service.attach?.(server);
  const port = await listen(server, options.port, options.host);
  options.onListening?.(port);
  try {
    await service.start();
  } catch (error) {
    for (const socket of upgraded) socket.destroy();
    await closeServer(server);
    // what start() got to before it failed (a subscription, a timer) must not keep the process alive
    await service.stop().catch(() => undefined);
    throw error;
  }
  isStarted = true;
  return {
    server,
    port,
    stop: async () => {
      for (const socket of upgraded) socket.destroy();
      await closeServer(server);
      await service.stop();
    },
  };
}
