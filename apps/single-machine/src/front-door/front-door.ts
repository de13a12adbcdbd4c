import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import express from 'express';
import { systemClock, type Clock } from '@kickstand/platform/clock';
import { closeServer, createForwarder, listen, requestIdOf } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';
import {
  createKickWebhookDoor,
  createWebhookVerifier,
  kickWebhookRoutes,
  webhookPath,
} from '@kickstand/kick-link/front-door';
import type { FrontDoorOptions } from './messages';
import { createOwnerLink } from './owner-link';
import { createPlainWebhookHandler } from './plain-webhook';
import { createSocketTunnelFront } from './socket-tunnel-front';

export interface FrontDoor {
  port: number;
  /** Stops listening, lets requests in flight finish (briefly), closes the connections and the link to the owner. */
  close(): Promise<void>;
}

const isWebhook = (req: IncomingMessage) =>
  req.method === 'POST' && (req.url === webhookPath || req.url?.startsWith(`${webhookPath}?`) === true);
const isSocketIo = (url: string | undefined) => url === '/socket.io' || url?.startsWith('/socket.io/') === true;

/**
 * Single-machine mode's front door: the public port, in a thread of its own so that the owner
 * thread (every service, the bus, the embedded stores) does not parse chat-rate HTTP.
 * - Kick's webhook: kick-link's door (size limit, signature, timestamp: the same module as its
 *   Express route, so the same 413/401) served on plain node:http (plain-webhook.ts), with its
 *   intake reached over the MessagePort: a verified delivery is answered 200 once handed over, 503
 *   while the owner is too far behind (owner-link.ts);
 * - socket.io: websockets through the tunnel to realtime's engine in the owner thread when there is
 *   one (`socketPort`, socket-tunnel-front.ts), else to the realtime service's port, as polling is;
 * - everything else: to the owner thread's gateway on loopback (route table, rate limit, access
 *   checks, the SPA), which hands it to the services in its thread as before.
 */
export async function startFrontDoor(
  options: FrontDoorOptions,
  ownerPort: MessagePort,
  log: Logger,
  clock: Clock = systemClock,
  socketPort?: MessagePort,
): Promise<FrontDoor> {
  const owner = createOwnerLink(ownerPort, {
    handOffTimeoutMs: options.handOffTimeoutMs,
    maxUnfinished: options.maxUnfinished,
    log,
  });
  const verifier = createWebhookVerifier({
    kick: { publicKey: owner.publicKey },
    clock,
    log,
    toleranceSeconds: options.verification.toleranceSeconds,
    refetchIntervalMs: options.verification.refetchIntervalMs,
    ...(options.verification.fallbackPem ? { fallbackPem: options.verification.fallbackPem } : {}),
  });
  const doorDeps = { verifier, intake: owner.intake, clock, log, bodyLimit: options.bodyLimit };
  // kick-link's Express route, only for a body with a Content-Encoding (plain-webhook.ts)
  const encodedWebhooks = express();
  encodedWebhooks.disable('x-powered-by');
  encodedWebhooks.use(kickWebhookRoutes(doorDeps));
  const webhook = createPlainWebhookHandler({
    door: createKickWebhookDoor(doorDeps),
    clock,
    log,
    viaExpress: (req, res) => encodedWebhooks(req, res),
  });
  // the owner thread trusts this hop (trustBehindFrontDoor): its `req.ip` is the client's address
  const gateway = createForwarder(options.gatewayUrl, {
    upstream: 'Kickstand gateway',
    clientAddress: 'appended',
    log,
  });
  const realtime = createForwarder(options.realtimeUrl, {
    upstream: 'realtime service',
    clientAddress: 'appended',
    log,
  });
  const tunnel = socketPort ? createSocketTunnelFront(socketPort, log) : undefined;

  const server: Server = createServer((req, res) => {
    if (isWebhook(req)) {
      res.setHeader('x-request-id', requestIdOf(req));
      webhook(req, res);
    } else if (isSocketIo(req.url)) realtime.http(req, res);
    else gateway.http(req, res);
  });
  // as startHttpService: kept-alive sockets outlive a proxy's idle timeout in front of us
  server.keepAliveTimeout = 65_000;
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isSocketIo(req.url)) {
      socket.destroy();
      return;
    }
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    if (tunnel) tunnel.upgrade(req, socket, head);
    else realtime.upgrade(req, socket, head);
  });
  const port = await listen(server, options.port, options.host);

  return {
    port,
    async close() {
      for (const socket of upgraded) socket.destroy();
      await closeServer(server);
      gateway.close();
      realtime.close();
      tunnel?.close();
      owner.close();
    },
  };
}
