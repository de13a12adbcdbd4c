import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import type { Logger } from '@kickstand/platform/log';
import { batchedSender, receiveOps } from './socket-tunnel-link';

/**
 * A dashboard that does not read what it is sent is dropped once this much waits for it here
 * (a chat line is a few hundred bytes: thousands of lines).
 */
export const maxUnsentBytes = 4 * 1024 * 1024;

/**
 * What a dashboard may send toward the owner thread: a dashboard sends little (its handshake,
 * pings, a history request now and then), but the tunnel has no backpressure of its own (the
 * loopback proxy had TCP's), so a client that floods would queue its bytes on the owner's port as
 * fast as this thread reads them. Past the burst, its socket is paused until the rate has paid for
 * what it sent, which pushes back on the client through TCP.
 */
export interface InboundLimit {
  bytesPerSecond: number;
  burstBytes: number;
}

export const defaultInboundLimit: Readonly<InboundLimit> = Object.freeze({
  bytesPerSecond: 64 * 1024,
  burstBytes: 256 * 1024,
});

export interface SocketTunnelFront {
  /** A socket.io websocket upgrade: its connection is served by realtime in the owner thread. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Destroys the connections and closes the port. */
  close(): void;
}

/**
 * The front door's side of the socket.io tunnel (socket-tunnel-owner.ts): it keeps the dashboards'
 * connections and moves their bytes over a MessagePort, batched per event-loop turn, instead of
 * proxying each to realtime's port over loopback, where the owner thread paid a socket write (and
 * this thread a read and a write) for every frame of every dashboard.
 */
export function createSocketTunnelFront(
  port: MessagePort,
  log: Logger,
  inboundLimit: InboundLimit = defaultInboundLimit,
): SocketTunnelFront {
  const sender = batchedSender(port);
  const connections = new Map<number, Duplex>();
  let nextId = 1;

  const gone = (id: number) => {
    if (connections.delete(id)) sender.send({ kind: 'close', id });
  };

  receiveOps(port, (op) => {
    const socket = connections.get(op.id);
    if (!socket) return;
    switch (op.kind) {
      case 'data':
        socket.write(op.bytes);
        if (socket.writableLength > maxUnsentBytes) {
          log.warn({ unsentBytes: socket.writableLength }, 'dashboard connection dropped: it does not read');
          socket.destroy();
        }
        break;
      case 'end':
        socket.end();
        break;
      case 'close':
        connections.delete(op.id);
        socket.destroy();
        break;
      case 'open':
        break; // only the front door opens
    }
  });

  return {
    upgrade(req, socket, head) {
      const id = nextId++;
      connections.set(id, socket);
      if (socket instanceof Socket) socket.setNoDelay(true);
      sender.send({
        kind: 'open',
        id,
        request: {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
          remoteAddress: req.socket.remoteAddress ?? '',
        },
        head,
      });
      const inbound = inboundBudget(inboundLimit);
      let resumeTimer: NodeJS.Timeout | undefined;
      socket.on('data', (chunk: Buffer) => {
        sender.send({ kind: 'data', id, bytes: chunk });
        const waitMs = inbound.spend(chunk.length, performance.now());
        if (waitMs <= 0 || resumeTimer) return;
        socket.pause();
        resumeTimer = setTimeout(() => {
          resumeTimer = undefined;
          socket.resume();
        }, waitMs);
      });
      socket.once('close', () => clearTimeout(resumeTimer));
      socket.on('end', () => {
        if (connections.has(id)) sender.send({ kind: 'end', id });
      });
      socket.on('error', () => socket.destroy());
      socket.on('close', () => gone(id));
    },
    close() {
      for (const socket of connections.values()) socket.destroy();
      connections.clear();
      port.close();
    },
  };
}

/** A token bucket of bytes: `spend` answers how long to wait (ms) before reading more, 0 if not. */
function inboundBudget({ bytesPerSecond, burstBytes }: InboundLimit) {
  let available = burstBytes;
  let lastMs: number | undefined;
  return {
    spend(bytes: number, nowMs: number): number {
      if (lastMs !== undefined)
        available = Math.min(burstBytes, available + ((nowMs - lastMs) * bytesPerSecond) / 1000);
      lastMs = nowMs;
      available -= bytes;
      return available >= 0 ? 0 : Math.ceil((-available * 1000) / bytesPerSecond);
    },
  };
}
