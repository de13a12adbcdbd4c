import { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import type { SocketIoEntry } from '@kickstand/platform/lifecycle';
import { batchedSender, receiveOps, type OpSender, type TunnelRequest } from './socket-tunnel-link';

/**
 * A dashboard's connection as socket.io (ws) sees it in the owner thread: what it writes goes to
 * the front door in the turn's batch, what the dashboard sends arrives from there. A write is done
 * once batched; the front door holds what the dashboard has not read yet (and drops a dashboard
 * that stops reading, socket-tunnel-front.ts).
 */
class TunnelSocket extends Duplex {
  /** ws and engine.io read these as they would on a net.Socket. */
  readonly remoteAddress: string;
  bytesWritten = 0;
  /** The front door said the connection is gone: nothing to tell it back. */
  isClosedByFront = false;

  constructor(
    private readonly id: number,
    private readonly sender: OpSender,
    remoteAddress: string,
    private readonly onGone: (id: number) => void,
  ) {
    super({ allowHalfOpen: true });
    this.remoteAddress = remoteAddress;
  }

  // nothing to ask for: the front door sends what the dashboard sends
  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.bytesWritten += chunk.byteLength;
    this.sender.send({ kind: 'data', id: this.id, bytes: chunk });
    done();
  }

  // ws corks a frame's header and payload together
  override _writev(chunks: Array<{ chunk: Buffer }>, done: (error?: Error | null) => void): void {
    for (const { chunk } of chunks) {
      this.bytesWritten += chunk.byteLength;
      this.sender.send({ kind: 'data', id: this.id, bytes: chunk });
    }
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.sender.send({ kind: 'end', id: this.id });
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.isClosedByFront) this.sender.send({ kind: 'close', id: this.id });
    this.onGone(this.id);
    done(error);
  }

  // the net.Socket settings ws makes: nothing to set on a tunnel
  setNoDelay(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
}

function requestOf(socket: TunnelSocket, request: TunnelRequest): IncomingMessage {
  // socket.io reads the handshake's headers, url and address from it, as from a request of its own port
  const req = new IncomingMessage(socket as unknown as Socket);
  req.method = request.method;
  req.url = request.url;
  req.headers = request.headers;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  return req;
}

/**
 * The frames to the dashboards go to the front door at most this often: at chat rates each message
 * to it costs this thread about what the loopback write of one frame did (waking the front
 * thread), so a message should carry several frames; 2 ms is a tenth of the dashboards' 20 ms
 * latency target (issue 22).
 */
export const frameBatchIntervalMs = 2;

export interface SocketTunnelOwner {
  /** Destroys the tunnelled connections and closes the port. */
  close(): void;
}

/**
 * The owner thread's side of the socket.io tunnel (socket-tunnel-front.ts): each websocket upgrade
 * the front door takes for /socket.io is handed to realtime's socket.io engine with a connection
 * whose bytes cross the MessagePort, so a frame to a dashboard costs this thread a copy into the
 * turn's one message instead of a loopback socket write. Handshake (token, per-user limit), rooms
 * and events are socket.io's, unchanged.
 */
export function serveSocketTunnel(port: MessagePort, socketIo: SocketIoEntry): SocketTunnelOwner {
  const sender = batchedSender(port, frameBatchIntervalMs);
  const sockets = new Map<number, TunnelSocket>();
  const forget = (id: number) => sockets.delete(id);

  receiveOps(port, (op) => {
    if (op.kind === 'open') {
      const socket = new TunnelSocket(op.id, sender, op.request.remoteAddress, forget);
      sockets.set(op.id, socket);
      socketIo.handleUpgrade(requestOf(socket, op.request), socket, op.head);
      return;
    }
    const socket = sockets.get(op.id);
    if (!socket) return;
    if (op.kind === 'data') socket.push(op.bytes);
    else if (op.kind === 'end') socket.push(null);
    else {
      socket.isClosedByFront = true;
      socket.destroy();
    }
  });

  return {
    close() {
      for (const socket of [...sockets.values()]) socket.destroy();
      port.close();
    },
  };
}
