import { connect, type Socket } from 'node:net';

/**
 * A lean HTTP/1.1 client for the load generator: a pool of keep-alive connections, one request in
 * flight per connection (as a webhook sender does), requests written as prepared bytes. Node's own
 * clients cost 5–10 times more CPU per request, CPU this 2-core machine needs for Kickstand.
 */

export interface ParsedResponse {
  status: number;
  /** The server asked to close the connection after this response. */
  isClosing: boolean;
}

const crlfcrlf = Buffer.from('\r\n\r\n');
const crlf = Buffer.from('\r\n');

/** Splits a byte stream into responses (Content-Length or chunked bodies; bodies are skipped). */
export function createResponseParser(): { push(chunk: Buffer): ParsedResponse[] } {
  let buffer: Buffer = Buffer.alloc(0);
  let state: 'head' | 'body' | 'chunk-size' | 'chunk-data' | 'trailer' = 'head';
  let remaining = 0;
  let current: ParsedResponse = { status: 0, isClosing: false };

  return {
    push(chunk) {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      const done: ParsedResponse[] = [];
      for (;;) {
        if (state === 'head') {
          const end = buffer.indexOf(crlfcrlf);
          if (end < 0) break;
          const head = buffer.toString('latin1', 0, end);
          buffer = buffer.subarray(end + 4);
          const lines = head.split('\r\n');
          const status = Number((lines[0] ?? '').split(' ')[1]);
          let contentLength = 0;
          let isChunked = false;
          let isClosing = false;
          for (let i = 1; i < lines.length; i++) {
            const line = lines[i] as string;
            const colon = line.indexOf(':');
            const name = line.slice(0, colon).trim().toLowerCase();
            const value = line
              .slice(colon + 1)
              .trim()
              .toLowerCase();
            if (name === 'content-length') contentLength = Number(value);
            else if (name === 'transfer-encoding') isChunked = value.includes('chunked');
            else if (name === 'connection') isClosing = value === 'close';
          }
          current = { status, isClosing };
          if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
            if (status >= 200) done.push(current);
            continue;
          }
          if (isChunked) {
            state = 'chunk-size';
          } else {
            state = 'body';
            remaining = contentLength;
          }
        }
        if (state === 'body') {
          if (buffer.length < remaining) {
            remaining -= buffer.length;
            buffer = Buffer.alloc(0);
            break;
          }
          buffer = buffer.subarray(remaining);
          done.push(current);
          state = 'head';
          continue;
        }
        if (state === 'chunk-size') {
          const end = buffer.indexOf(crlf);
          if (end < 0) break;
          const size = parseInt(buffer.toString('latin1', 0, end).split(';')[0] ?? '', 16);
          buffer = buffer.subarray(end + 2);
          if (size === 0) {
            state = 'trailer';
          } else {
            state = 'chunk-data';
            remaining = size + 2; // the data and its CRLF
          }
          continue;
        }
        if (state === 'chunk-data') {
          if (buffer.length < remaining) {
            remaining -= buffer.length;
            buffer = Buffer.alloc(0);
            break;
          }
          buffer = buffer.subarray(remaining);
          state = 'chunk-size';
          continue;
        }
        // trailer: lines until an empty one
        const end = buffer.indexOf(crlf);
        if (end < 0) break;
        buffer = buffer.subarray(end + 2);
        if (end === 0) {
          done.push(current);
          state = 'head';
        }
      }
      return done;
    },
  };
}

export type RequestDone = (status: number | null, error?: string) => void;

interface Pending {
  bytes: Buffer;
  done: RequestDone;
}

interface Connection {
  socket: Socket;
  parser: ReturnType<typeof createResponseParser>;
  current: (Pending & { startedAt: number }) | undefined;
  isOpen: boolean;
}

export interface RawHttpPool {
  request(bytes: Buffer, done: RequestDone): void;
  /** Requests waiting for a free connection. */
  readonly queued: number;
  readonly inFlight: number;
  /** Fails every request still waiting for a connection (they were never written). */
  dropQueued(reason: string): number;
  close(): void;
}

export function createRawHttpPool(options: {
  host: string;
  port: number;
  connections: number;
  timeoutMs: number;
}): RawHttpPool {
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  const queue: Pending[] = [];
  let queueHead = 0;
  let inFlight = 0;
  let isClosed = false;

  function open(): Connection {
    const socket = connect({ host: options.host, port: options.port, noDelay: true });
    const connection: Connection = { socket, parser: createResponseParser(), current: undefined, isOpen: false };
    all.add(connection);
    socket.on('connect', () => {
      connection.isOpen = true;
    });
    socket.on('data', (chunk: Buffer) => {
      for (const response of connection.parser.push(chunk)) {
        const finished = connection.current;
        connection.current = undefined;
        if (finished) {
          inFlight--;
          finished.done(response.status);
        }
        if (response.isClosing) {
          socket.destroy();
          return;
        }
        next(connection);
      }
    });
    const fail = (error: string) => {
      if (!all.delete(connection)) return;
      const index = idle.indexOf(connection);
      if (index >= 0) idle.splice(index, 1);
      const finished = connection.current;
      connection.current = undefined;
      if (finished) {
        inFlight--;
        finished.done(null, error);
      }
      // whatever waits gets a fresh connection
      if (!isClosed && queue.length > queueHead) next(open());
    };
    socket.on('error', (error) => fail(error.message));
    socket.on('close', () => fail('connection closed'));
    return connection;
  }

  function next(connection: Connection): void {
    if (queueHead < queue.length) {
      const pending = queue[queueHead] as Pending;
      queue[queueHead++] = undefined as unknown as Pending;
      if (queueHead > 4096 && queueHead * 2 > queue.length) {
        queue.splice(0, queueHead);
        queueHead = 0;
      }
      connection.current = { ...pending, startedAt: performance.now() };
      inFlight++;
      connection.socket.write(pending.bytes);
      return;
    }
    idle.push(connection);
  }

  const sweeper = setInterval(() => {
    const now = performance.now();
    for (const connection of all) {
      if (connection.current && now - connection.current.startedAt > options.timeoutMs) {
        const finished = connection.current;
        connection.current = undefined;
        inFlight--;
        finished.done(null, `no answer within ${options.timeoutMs} ms`);
        connection.socket.destroy();
      }
    }
  }, 250);
  sweeper.unref();

  return {
    request(bytes, done) {
      if (isClosed) {
        done(null, 'the pool is closed');
        return;
      }
      queue.push({ bytes, done });
      const free = idle.pop();
      if (free) next(free);
      else if (all.size < options.connections) next(open());
    },
    get queued() {
      return queue.length - queueHead;
    },
    get inFlight() {
      return inFlight;
    },
    dropQueued(reason) {
      const dropped = queue.slice(queueHead);
      queue.length = 0;
      queueHead = 0;
      for (const pending of dropped) pending.done(null, reason);
      return dropped.length;
    },
    close() {
      isClosed = true;
      clearInterval(sweeper);
      for (const connection of all) connection.socket.destroy();
    },
  };
}
