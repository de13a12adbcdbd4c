import type { IncomingHttpHeaders } from 'node:http';
import type { MessagePort } from 'node:worker_threads';

/**
 * The socket.io websocket tunnel between the front door thread (which holds the dashboards'
 * connections) and the owner thread (realtime's socket.io engine): what goes over its MessagePort.
 * A connection is a number of the front door's; its bytes go through untouched both ways.
 */
export type TunnelOp =
  /** front → owner: an upgrade request to /socket.io, with the bytes that came after its head */
  | { kind: 'open'; id: number; request: TunnelRequest; head: Buffer }
  /** either way: bytes of the connection, in order */
  | { kind: 'data'; id: number; bytes: Buffer }
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

/**
 * One event-loop turn's ops, as one message: per op three numbers (kind, connection, byte length)
 * in `ops`, the bytes of every data and open op one after the other in `bytes` (transferred, not
 * copied), the requests of the open ops in `requests`. Far cheaper to post than an object per
 * op: structured cloning costs per object, and every frame to a dashboard is an op.
 */
interface TunnelBatch {
  ops: Int32Array;
  bytes: ArrayBuffer;
  requests: TunnelRequest[];
}

const kindCodes = { data: 0, end: 1, close: 2, open: 3 } as const;

export interface OpSender {
  /** Copies the bytes at once: the caller may reuse its buffers. */
  send(op: TunnelOp): void;
}

/** Bytes of the buffer a turn's bytes are collected in at first (it grows as needed). */
const initialCapacity = 16 * 1024;

/**
 * The ops of one event-loop turn go over the port in one message, in order: a message costs both
 * threads more than the bytes it carries (most of it waking the other thread), and a turn of the
 * owner thread writes to many sockets. A connection's data ops that follow each other become one
 * (ws writes a frame's header and its payload as two writes, and socket.io's events of one bus
 * message go to a room one after the other): the receiving side writes each op with one socket
 * write, a system call and a TCP segment that wakes the dashboard's process. With `minIntervalMs`,
 * a message follows the one before by at least that long (the ops of the turns between wait for
 * it): fewer, larger messages at a cost of at most that much latency.
 */
export function batchedSender(port: MessagePort, minIntervalMs = 0): OpSender {
  let buffer = new ArrayBuffer(initialCapacity);
  let bytes = new Uint8Array(buffer);
  let used = 0;
  let ops: number[] = [];
  let requests: TunnelRequest[] = [];

  const copy = (chunk: Uint8Array) => {
    if (used + chunk.byteLength > bytes.byteLength) {
      buffer = new ArrayBuffer(Math.max(buffer.byteLength * 2, used + chunk.byteLength));
      const grown = new Uint8Array(buffer);
      grown.set(bytes.subarray(0, used));
      bytes = grown;
    }
    bytes.set(chunk, used);
    used += chunk.byteLength;
  };

  let lastFlushAt = Number.NEGATIVE_INFINITY;
  const flush = () => {
    lastFlushAt = performance.now();
    // a copy of exactly the batch's bytes, transferred; the collecting buffer is kept for the next one
    const meta = new ArrayBuffer(ops.length * Int32Array.BYTES_PER_ELEMENT);
    new Int32Array(meta).set(ops);
    const batch: TunnelBatch = { ops: new Int32Array(meta), bytes: buffer.slice(0, used), requests };
    port.postMessage(batch, [meta, batch.bytes]);
    used = 0;
    ops = [];
    requests = [];
  };

  const schedule = () => {
    const wait = lastFlushAt + minIntervalMs - performance.now();
    if (wait <= 0) setImmediate(flush);
    else setTimeout(flush, wait);
  };

  return {
    send(op) {
      if (ops.length === 0) schedule();
      const last = ops.length - 3;
      if (op.kind === 'data' && last >= 0 && ops[last] === kindCodes.data && ops[last + 1] === op.id) {
        // the connection's bytes right after its own: one op, so the other side writes them with one call
        copy(op.bytes);
        ops[last + 2] = (ops[last + 2] as number) + op.bytes.byteLength;
        return;
      }
      let length = 0;
      if (op.kind === 'data' || op.kind === 'open') {
        const chunk = op.kind === 'data' ? op.bytes : op.head;
        copy(chunk);
        length = chunk.byteLength;
        if (op.kind === 'open') requests.push(op.request);
      }
      ops.push(kindCodes[op.kind], op.id, length);
    },
  };
}

/** Calls `onOp` with each op that comes over the port, in order; the bytes are views of the batch's buffer. */
export function receiveOps(port: MessagePort, onOp: (op: TunnelOp) => void): void {
  port.on('message', ({ ops, bytes, requests }: TunnelBatch) => {
    let offset = 0;
    let opened = 0;
    for (let i = 0; i + 2 < ops.length; i += 3) {
      const code = ops[i] as number;
      const id = ops[i + 1] as number;
      const length = ops[i + 2] as number;
      const chunk = Buffer.from(bytes, offset, length);
      offset += length;
      if (code === kindCodes.data) onOp({ kind: 'data', id, bytes: chunk });
      else if (code === kindCodes.end) onOp({ kind: 'end', id });
      else if (code === kindCodes.close) onOp({ kind: 'close', id });
      else onOp({ kind: 'open', id, request: requests[opened++] as TunnelRequest, head: chunk });
    }
  });
}
