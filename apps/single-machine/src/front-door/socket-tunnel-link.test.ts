import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { closeServer, listen } from '@kickstand/platform/lifecycle';
import { createSilentLogger } from '@kickstand/platform/log';
import { eventually } from '@kickstand/platform/testing';
import { batchedSender, receiveOps, type TunnelOp } from './socket-tunnel-link';
import { createSocketTunnelFront, defaultInboundLimit, maxUnsentBytes } from './socket-tunnel-front';

/** The ops that came over the port, as plain values (bytes as text). */
function collect(port: MessagePort) {
  const seen: unknown[] = [];
  receiveOps(port, (op) => {
    if (op.kind === 'data') seen.push({ kind: 'data', id: op.id, text: op.bytes.toString() });
    else if (op.kind === 'open') seen.push({ kind: 'open', id: op.id, url: op.request.url, head: op.head.toString() });
    else seen.push(op);
  });
  return seen;
}

describe('the tunnel link', () => {
  test('when ops of several connections are sent in one turn, then they arrive in one message, in order, with their bytes and requests', async () => {
    const channel = new MessageChannel();
    const seen = collect(channel.port2);
    let messages = 0;
    channel.port2.on('message', () => messages++);
    const sender = batchedSender(channel.port1);
    const reused = Buffer.from('first');
    const request = { method: 'GET', url: '/socket.io/?EIO=4&transport=websocket', headers: {}, remoteAddress: '::1' };
    const ops: TunnelOp[] = [
      { kind: 'open', id: 1, request, head: Buffer.from('') },
      { kind: 'data', id: 1, bytes: reused },
      { kind: 'open', id: 2, request: { ...request, url: '/socket.io/?two' }, head: Buffer.from('early') },
      { kind: 'data', id: 2, bytes: Buffer.from('second') },
      { kind: 'end', id: 1 },
      { kind: 'close', id: 2 },
    ];
    for (const op of ops) sender.send(op);
    reused.write('FIRST'); // the sender copied the bytes when they were sent
    await eventually(() => expect(seen).toHaveLength(ops.length));
    expect(seen).toEqual([
      { kind: 'open', id: 1, url: '/socket.io/?EIO=4&transport=websocket', head: '' },
      { kind: 'data', id: 1, text: 'first' },
      { kind: 'open', id: 2, url: '/socket.io/?two', head: 'early' },
      { kind: 'data', id: 2, text: 'second' },
      { kind: 'end', id: 1 },
      { kind: 'close', id: 2 },
    ]);
    expect(messages).toBe(1);
    channel.port1.close();
  });

  test("when a connection's bytes are sent in several writes one after the other, then they arrive as one data op; another op in between keeps them apart", async () => {
    const channel = new MessageChannel();
    const seen = collect(channel.port2);
    const sender = batchedSender(channel.port1);
    const ops: TunnelOp[] = [
      // a frame's header and payload, then a second frame to the same connection
      { kind: 'data', id: 1, bytes: Buffer.from('head1') },
      { kind: 'data', id: 1, bytes: Buffer.from('body1') },
      { kind: 'data', id: 1, bytes: Buffer.from('head2body2') },
      { kind: 'data', id: 2, bytes: Buffer.from('other') },
      { kind: 'data', id: 1, bytes: Buffer.from('later') },
      { kind: 'end', id: 1 },
      { kind: 'data', id: 1, bytes: Buffer.from('after-end') },
    ];
    for (const op of ops) sender.send(op);
    await eventually(() => expect(seen).toHaveLength(5));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([
      { kind: 'data', id: 1, text: 'head1body1head2body2' },
      { kind: 'data', id: 2, text: 'other' },
      { kind: 'data', id: 1, text: 'later' },
      { kind: 'end', id: 1 },
      { kind: 'data', id: 1, text: 'after-end' },
    ]);
    channel.port1.close();
  });
});

describe("the tunnel's front end", () => {
  let server: Server;
  let port: number;
  let client: Socket | undefined;
  afterEach(async () => {
    client?.destroy();
    server.closeAllConnections();
    await closeServer(server);
  });

  test('when a dashboard does not read what it is sent, then it is dropped and the owner is told the connection is gone', async () => {
    const channel = new MessageChannel();
    const tunnel = createSocketTunnelFront(channel.port1, createSilentLogger());
    server = createServer();
    server.on('upgrade', (req, socket, head) => tunnel.upgrade(req, socket, head));
    port = await listen(server, 0, '127.0.0.1');
    let opened: (id: number) => void = () => undefined;
    let closed: (id: number) => void = () => undefined;
    const whenOpened = new Promise<number>((resolve) => (opened = resolve));
    const gone = new Promise<number>((resolve) => (closed = resolve));
    receiveOps(channel.port2, (op) => {
      if (op.kind === 'open') opened(op.id);
      if (op.kind === 'close') closed(op.id);
    });
    // a client that asks for the upgrade and then reads nothing
    client = connect(port, '127.0.0.1', () => {
      client?.write('GET /socket.io/?EIO=4 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      client?.pause();
    });
    const id = await whenOpened;
    const owner = batchedSender(channel.port2);
    const megabyte = Buffer.alloc(1024 * 1024, 1);
    // far more than the kernel's buffers and the limit: the front thread has to hold it
    for (let n = 0; n < 8 * (maxUnsentBytes / megabyte.length); n++) {
      owner.send({ kind: 'data', id, bytes: megabyte });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await gone).toBe(id);
    tunnel.close();
    channel.port2.close();
  });

  test('when a dashboard sends more than its burst, then its socket is paused: the owner gets the burst, not the flood', async () => {
    const channel = new MessageChannel();
    // 1 byte a second after a 4 KB burst: once past it, the socket stays paused for the test
    const tunnel = createSocketTunnelFront(channel.port1, createSilentLogger(), {
      bytesPerSecond: 1,
      burstBytes: 4096,
    });
    server = createServer();
    server.on('upgrade', (req, socket, head) => tunnel.upgrade(req, socket, head));
    port = await listen(server, 0, '127.0.0.1');
    let received = 0;
    receiveOps(channel.port2, (op) => {
      if (op.kind === 'data') received += op.bytes.length;
    });
    const flood = Buffer.alloc(4 * 1024 * 1024, 1);
    client = connect(port, '127.0.0.1', () => {
      client?.write('GET /socket.io/?EIO=4 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      client?.write(flood);
    });
    await eventually(() => expect(received).toBeGreaterThan(4096));
    // what was read in the turn that went past the burst (a socket read is at most 64 KB) and no more
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toBeLessThanOrEqual(4096 + 64 * 1024);
    expect(client.writableLength).toBeGreaterThan(0); // the rest waits on the client's side
    tunnel.close();
    channel.port2.close();
  });

  test('when the default limit is read, then a dashboard may send 64 KB a second after a 256 KB burst', () => {
    expect(defaultInboundLimit).toEqual({ bytesPerSecond: 65_536, burstBytes: 262_144 });
  });
});
