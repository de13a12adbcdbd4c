import { connect, type Socket } from 'node:net';

/**
 * A lean HTTP/1.1 client for the load generator: a pool of keep-alive connections, one request in
 * flight per connection (as a webhook sender does), requests written as prepared bytes. Node's own
 * clients cost 5–10 times more CPU per request, CPU this 2-core machine needs for Kickstand.
 *
 * It allocates next to nothing per request, so that its garbage collections do not land on the
 * cores Kickstand is measured on (docs/performance.md, "The generator's own footprint"): each
 * connection reads into one buffer of its own (`onread`), responses are parsed in place without
 * strings, and an answer is reported with the number the request was given (`tag`) to one handler
 * of the pool, instead of a closure per request.
 */

export type ResponseHandler = (status: number, isClosing: boolean) => void;

const crlfcrlf = Buffer.from('\r\n\r\n');
const crlf = Buffer.from('\r\n');

const lowerCase = (byte: number) => (byte >= 65 && byte <= 90 ? byte + 32 : byte);
const isBlank = (byte: number) => byte === 32 || byte === 9;

/** Whether bytes [from, to) are `literal` (lower case ASCII), ignoring case. */
function isAscii(bytes: Buffer, from: number, to: number, literal: string): boolean {
  if (to - from !== literal.length) return false;
  for (let k = 0; k < literal.length; k++) {
    if (lowerCase(bytes[from + k] as number) !== literal.charCodeAt(k)) return false;
  }
  return true;
}

/** Whether bytes [from, to) hold `literal` (lower case ASCII), ignoring case. */
function includesAscii(bytes: Buffer, from: number, to: number, literal: string): boolean {
  for (let at = from; at + literal.length <= to; at++)
    if (isAscii(bytes, at, at + literal.length, literal)) return true;
  return false;
}

// the parser's states
const State = { Head: 0, Body: 1, ChunkSize: 2, ChunkData: 3, Trailer: 4 } as const;

/**
 * Splits a byte stream into responses (Content-Length or chunked bodies; bodies are skipped) and
 * calls `onResponse` for each. `push` reads the chunk only while it runs (the caller may reuse it);
 * a head or chunk line cut by the end of a chunk is copied until the rest comes.
 */
export function createResponseParser(onResponse: ResponseHandler): { push(chunk: Buffer, length?: number): void } {
  let carry: Buffer | undefined;
  let state: number = State.Head;
  let remaining = 0;
  let status = 0;
  let isClosing = false;

  /** Reads the head in [from, to) (to: where its blank line starts); false when it has no body. */
  function readHead(bytes: Buffer, from: number, to: number): boolean {
    // "HTTP/1.1 200 OK": the three digits after the first space
    let at = bytes.indexOf(32, from);
    status = 0;
    for (let k = at + 1; at >= 0 && k < at + 4 && k < to; k++) status = status * 10 + ((bytes[k] as number) - 48);
    let contentLength = 0;
    let isChunked = false;
    isClosing = false;
    at = bytes.indexOf(crlf, from);
    while (at >= 0 && at < to) {
      const lineStart = at + 2;
      let lineEnd = bytes.indexOf(crlf, lineStart);
      if (lineEnd < 0 || lineEnd > to) lineEnd = to;
      const colon = bytes.indexOf(58, lineStart); // ':'
      if (colon > lineStart && colon < lineEnd) {
        let nameEnd = colon;
        while (nameEnd > lineStart && isBlank(bytes[nameEnd - 1] as number)) nameEnd--;
        let valueStart = colon + 1;
        let valueEnd = lineEnd;
        while (valueStart < valueEnd && isBlank(bytes[valueStart] as number)) valueStart++;
        while (valueEnd > valueStart && isBlank(bytes[valueEnd - 1] as number)) valueEnd--;
        if (isAscii(bytes, lineStart, nameEnd, 'content-length')) {
          contentLength = 0;
          for (let k = valueStart; k < valueEnd; k++) contentLength = contentLength * 10 + ((bytes[k] as number) - 48);
        } else if (isAscii(bytes, lineStart, nameEnd, 'transfer-encoding')) {
          isChunked = includesAscii(bytes, valueStart, valueEnd, 'chunked');
        } else if (isAscii(bytes, lineStart, nameEnd, 'connection')) {
          isClosing = isAscii(bytes, valueStart, valueEnd, 'close');
        }
      }
      at = lineEnd === to ? -1 : lineEnd;
    }
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) return false;
    if (isChunked) {
      state = State.ChunkSize;
    } else {
      state = State.Body;
      remaining = contentLength;
    }
    return true;
  }

  return {
    push(chunk, length = chunk.length) {
      let bytes = chunk;
      let end = length;
      if (carry) {
        bytes = Buffer.concat([carry, chunk.subarray(0, length)]);
        end = bytes.length;
        carry = undefined;
      }
      let at = 0;
      for (;;) {
        if (state === State.Head) {
          const headEnd = bytes.indexOf(crlfcrlf, at);
          if (headEnd < 0 || headEnd + 4 > end) break;
          const hasBody = readHead(bytes, at, headEnd);
          at = headEnd + 4;
          if (!hasBody) {
            if (status >= 200) onResponse(status, isClosing);
            continue;
          }
        }
        if (state === State.Body || state === State.ChunkData) {
          const taken = Math.min(remaining, end - at);
          at += taken;
          remaining -= taken;
          if (remaining > 0) break;
          if (state === State.Body) {
            state = State.Head;
            onResponse(status, isClosing);
          } else {
            state = State.ChunkSize;
          }
          continue;
        }
        const lineEnd = bytes.indexOf(crlf, at);
        if (lineEnd < 0 || lineEnd + 2 > end) break;
        if (state === State.ChunkSize) {
          let size = 0;
          for (let k = at; k < lineEnd; k++) {
            const digit = lowerCase(bytes[k] as number);
            if (digit >= 48 && digit <= 57) size = size * 16 + digit - 48;
            else if (digit >= 97 && digit <= 102) size = size * 16 + digit - 87;
            else break; // ';' starts the chunk's extensions
          }
          if (size === 0) {
            state = State.Trailer;
          } else {
            state = State.ChunkData;
            remaining = size + 2; // the data and its CRLF
          }
        } else if (lineEnd === at) {
          // the trailer's lines end with an empty one
          state = State.Head;
          onResponse(status, isClosing);
        }
        at = lineEnd + 2;
      }
      // kept for the next chunk: a cut head or line (copied: the chunk may be reused)
      if (at < end) carry = Buffer.from(bytes.subarray(at, end));
    },
  };
}

/** Called once per request: its tag, the answer's status, or null and why there was none. */
export type AnswerHandler = (tag: number, status: number | null, error?: string) => void;

interface Connection {
  socket: Socket;
  /** The tag of the request in flight, or −1. */
  tag: number;
  startedAt: number;
  isClosed: boolean;
}

export interface RawHttpPool {
  /** Writes `bytes` on a free connection, or queues them until one is free; `tag` (≥ 0) comes back with the answer. */
  request(bytes: Buffer, tag: number): void;
  /** Requests waiting for a free connection. */
  readonly queued: number;
  readonly inFlight: number;
  /** Fails every request still waiting for a connection (they were never written). */
  dropQueued(reason: string): number;
  close(): void;
}

/** Each connection reads into a buffer of this size, used again for every read. */
const readBufferSize = 16 * 1024;

export function createRawHttpPool(options: {
  host: string;
  port: number;
  connections: number;
  timeoutMs: number;
  onAnswer: AnswerHandler;
}): RawHttpPool {
  const { onAnswer } = options;
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  // waiting for a connection (only when every connection is busy)
  let queuedBytes: Buffer[] = [];
  let queuedTags: number[] = [];
  let queueHead = 0;
  let inFlight = 0;
  let isClosed = false;
  const timeoutError = `no answer within ${options.timeoutMs} ms`;

  function open(): Connection {
    const connection: Connection = {
      socket: undefined as unknown as Socket,
      tag: -1,
      startedAt: 0,
      isClosed: false,
    };
    const parser = createResponseParser((status, isClosing) => {
      if (connection.isClosed) return;
      const tag = connection.tag;
      connection.tag = -1;
      if (tag >= 0) {
        inFlight--;
        onAnswer(tag, status);
      }
      if (isClosing) {
        connection.isClosed = true;
        connection.socket.destroy();
        return;
      }
      next(connection);
    });
    const readBuffer = Buffer.allocUnsafe(readBufferSize);
    connection.socket = connect({
      host: options.host,
      port: options.port,
      noDelay: true,
      onread: {
        buffer: readBuffer,
        callback: (length) => {
          parser.push(readBuffer, length);
          return true; // keep reading
        },
      },
    });
    all.add(connection);
    const fail = (error: string) => {
      connection.isClosed = true;
      if (!all.delete(connection)) return;
      const index = idle.indexOf(connection);
      if (index >= 0) idle.splice(index, 1);
      const tag = connection.tag;
      connection.tag = -1;
      if (tag >= 0) {
        inFlight--;
        onAnswer(tag, null, error);
      }
      // whatever waits gets a fresh connection
      if (!isClosed && queuedTags.length > queueHead) next(open());
    };
    connection.socket.on('error', (error) => fail(error.message));
    connection.socket.on('close', () => fail('connection closed'));
    return connection;
  }

  function write(connection: Connection, bytes: Buffer, tag: number): void {
    connection.tag = tag;
    connection.startedAt = performance.now();
    inFlight++;
    connection.socket.write(bytes);
  }

  function next(connection: Connection): void {
    if (queueHead < queuedTags.length) {
      const bytes = queuedBytes[queueHead] as Buffer;
      const tag = queuedTags[queueHead] as number;
      queuedBytes[queueHead] = undefined as unknown as Buffer;
      queueHead++;
      if (queueHead === queuedTags.length) {
        queuedBytes = [];
        queuedTags = [];
        queueHead = 0;
      } else if (queueHead > 4096 && queueHead * 2 > queuedTags.length) {
        // a standing backlog: let go of the slots already taken
        queuedBytes.splice(0, queueHead);
        queuedTags.splice(0, queueHead);
        queueHead = 0;
      }
      write(connection, bytes, tag);
      return;
    }
    idle.push(connection);
  }

  const sweeper = setInterval(() => {
    const now = performance.now();
    for (const connection of all) {
      if (connection.tag >= 0 && now - connection.startedAt > options.timeoutMs) {
        const tag = connection.tag;
        connection.tag = -1;
        connection.isClosed = true;
        inFlight--;
        onAnswer(tag, null, timeoutError);
        connection.socket.destroy();
      }
    }
  }, 250);
  sweeper.unref();

  return {
    request(bytes, tag) {
      if (isClosed) {
        onAnswer(tag, null, 'the pool is closed');
        return;
      }
      const free = idle.pop();
      if (free) {
        write(free, bytes, tag);
        return;
      }
      queuedBytes.push(bytes);
      queuedTags.push(tag);
      if (all.size < options.connections) next(open());
    },
    get queued() {
      return queuedTags.length - queueHead;
    },
    get inFlight() {
      return inFlight;
    },
    dropQueued(reason) {
      const tags = queuedTags.slice(queueHead);
      queuedBytes = [];
      queuedTags = [];
      queueHead = 0;
      for (const tag of tags) onAnswer(tag, null, reason);
      return tags.length;
    },
    close() {
      isClosed = true;
      clearInterval(sweeper);
      for (const connection of all) connection.socket.destroy();
    },
  };
}
