import type { IncomingHttpHeaders } from 'node:http';
import type { MessagePort } from 'node:worker_threads';

/**
 * The socket.io websocket tunnel between the front door thread (which holds the dashboards'
 * connections) and the owner thread (realtime's socket.io engine): what goes over its MessagePort.
 * A connection is a number of the front door's; its bytes go through untouched both ways.
 */
export type TunnelOp =
  /** front → owner: an upgrade request to /socket.io, with the bytes that came after its head */
  | { kind: 'open'; id: number; request: TunnelRequest; head: Uint8Array }
  /** either way: bytes of the connection, in order */
  | { kind: 'data'; id: number; bytes: Uint8Array }
  /** either way: that side ended its writing (half-close) */
  | { kind: 'end'; id: number }
  /** either way: the connection is gone (the other side destroys its end) */
  | { kind: 'close'; id: number };

export interface TunnelRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The dashboard's address, as realtime would have seen it on its own port. */
  remoteAddress: string;
}

/** Copies a chunk into bytes of its own: a pooled Buffer's view would be cloned with its whole pool. */
export function ownBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return new Uint8Array(chunks[0] as Uint8Array);
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export interface OpSender {
  send(op: TunnelOp): void;
}

/**
 * The ops of one event-loop turn go over the port in one message, in order: a message costs both
 * threads more than the bytes it carries, and a turn of the owner thread writes to many sockets.
 */
export function batchedSender(port: MessagePort): OpSender {
  let ops: TunnelOp[] = [];
  const flush = () => {
    const batch = ops;
    ops = [];
    port.postMessage(batch);
  };
  return {
    send(op) {
      if (ops.length === 0) setImmediate(flush);
      ops.push(op);
    },
  };
}
