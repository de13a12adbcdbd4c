import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRawHttpPool, createResponseParser } from './raw-http';

describe('the response parser', () => {
  test('when responses arrive split at any byte, then each is reported once with its status', () => {
    const stream = Buffer.from(
      'HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\n{"success":true}' +
        'HTTP/1.1 401 Unauthorized\r\ncontent-length: 2\r\n\r\n{}' +
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n3;x=y\r\nefg\r\n0\r\n\r\n' +
        'HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n' +
        'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nCONNECTION :  Close \r\n\r\n' +
        'HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: gzip, CHUNKED\r\nX-Trailer: 1\r\n\r\n' +
        'a\r\n0123456789\r\n0\r\nX-Checksum: 1\r\n\r\n',
    );
    for (const size of [1, 2, 7, stream.length]) {
      const statuses: number[] = [];
      const closing: boolean[] = [];
      const parser = createResponseParser((status, isClosing) => {
        statuses.push(status);
        closing.push(isClosing);
      });
      // as a socket's onread does: one buffer used again for every read, with stale bytes after the read's length
      const readBuffer = Buffer.alloc(size + 8, 'X');
      for (let at = 0; at < stream.length; at += size) {
        const read = stream.subarray(at, at + size);
        readBuffer.fill('\r\n\r\n');
        read.copy(readBuffer);
        parser.push(readBuffer, read.length);
      }
      expect(statuses).toEqual([200, 401, 200, 204, 200, 503]);
      expect(closing).toEqual([false, false, false, true, true, false]);
    }
  });
});

describe('the raw keep-alive pool', () => {
  test('when many requests go through a few connections, then every one is answered and connections are reused', async () => {
    const connections = new Set<unknown>();
    const server = createServer((req, res) => {
      connections.add(req.socket);
      let length = 0;
      req.on('data', (chunk: Buffer) => (length += chunk.length));
      req.on('end', () => res.writeHead(length === 5 ? 200 : 400, { 'content-type': 'text/plain' }).end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answers: [number, number | null][] = [];
    let allAnswered = () => {};
    const pool = createRawHttpPool({
      host: '127.0.0.1',
      port,
      connections: 4,
      timeoutMs: 5000,
      onAnswer: (tag, status) => {
        answers.push([tag, status]);
        if (answers.length === 200) allAnswered();
      },
    });
    const bytes = Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello`);
    try {
      const done = new Promise<void>((resolve) => (allAnswered = resolve));
      for (let tag = 0; tag < 200; tag++) pool.request(bytes, tag);
      await done;
      expect(answers.map(([tag]) => tag).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, tag) => tag));
      expect(answers.every(([, status]) => status === 200)).toBe(true);
      expect(connections.size).toBeLessThanOrEqual(4);
      expect(pool.inFlight).toBe(0);
    } finally {
      pool.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the raw pool when every connection is busy', () => {
  test('when requests wait for a connection, then dropping them answers each waiting tag with the reason, and the written ones are still answered', async () => {
    const held: (() => void)[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => held.push(() => res.writeHead(200).end()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answers: [number, number | null, string | undefined][] = [];
    const pool = createRawHttpPool({
      host: '127.0.0.1',
      port,
      connections: 2,
      timeoutMs: 5000,
      onAnswer: (tag, status, error) => answers.push([tag, status, error]),
    });
    const bytes = Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`);
    try {
      for (let tag = 10; tag < 15; tag++) pool.request(bytes, tag);
      while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));

      expect(pool.inFlight).toBe(2);
      expect(pool.queued).toBe(3);
      expect(pool.dropQueued('dropped: test')).toBe(3);
      held.forEach((answer) => answer());
      while (answers.length < 5) await new Promise((resolve) => setTimeout(resolve, 5));

      expect(answers.slice(0, 3)).toEqual([
        [12, null, 'dropped: test'],
        [13, null, 'dropped: test'],
        [14, null, 'dropped: test'],
      ]);
      expect(answers.slice(3).sort()).toEqual([
        [10, 200, undefined],
        [11, 200, undefined],
      ]);
      expect(pool.inFlight).toBe(0);
    } finally {
      pool.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
