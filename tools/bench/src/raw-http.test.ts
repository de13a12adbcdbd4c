import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRawHttpPool, createResponseParser } from './raw-http';

describe('the response parser', () => {
  test('when responses arrive split at any byte, then each is reported once with its status', () => {
    const stream = Buffer.from(
      'HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\n{"success":true}' +
        'HTTP/1.1 401 Unauthorized\r\ncontent-length: 2\r\n\r\n{}' +
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n3;x=y\r\nefg\r\n0\r\n\r\n' +
        'HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n',
    );
    for (const size of [1, 2, 7, stream.length]) {
      const parser = createResponseParser();
      const statuses: number[] = [];
      const closing: boolean[] = [];
      for (let at = 0; at < stream.length; at += size) {
        for (const response of parser.push(stream.subarray(at, at + size))) {
          statuses.push(response.status);
          closing.push(response.isClosing);
        }
      }
      expect(statuses).toEqual([200, 401, 200, 204]);
      expect(closing).toEqual([false, false, false, true]);
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
    const pool = createRawHttpPool({ host: '127.0.0.1', port, connections: 4, timeoutMs: 5000 });
    const bytes = Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello`);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 200 }, () => new Promise<number | null>((resolve) => pool.request(bytes, resolve))),
      );
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(connections.size).toBeLessThanOrEqual(4);
      expect(pool.inFlight).toBe(0);
    } finally {
      pool.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
