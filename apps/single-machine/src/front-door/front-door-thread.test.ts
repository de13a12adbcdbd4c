import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import { createSilentLogger } from '@kickstand/platform/log';
import { listenLocally, type LocalServer } from '@kickstand/platform/testing';
import { startFrontDoorThread } from './front-door-thread';
import type { FrontDoorOptions } from './messages';
import { aKickKey, aRecordingDoor } from './testing/door-fakes';

// The worker runs the compiled front door (dist): `npm test` builds first (tsc -b).
const kickKey = aKickKey();
const body = JSON.stringify({ message_id: 'm-1', broadcaster: { user_id: 42 }, content: 'hello' });

function post(port: number, headers: Record<string, string>, payload: string) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/kick/webhook', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const isRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** An upstream that switches to a raw echo protocol on upgrade, standing in for socket.io's websocket. */
function anEchoingUpgrade() {
  const server = createServer((_req, res) => res.end());
  server.on('upgrade', (_req, socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  return server;
}

describe('the front door in its worker thread', () => {
  let realtime: LocalServer;
  beforeAll(async () => {
    realtime = await listenLocally(anEchoingUpgrade());
  });
  afterAll(async () => {
    await realtime.close();
  });

  const options = (port = 0): FrontDoorOptions => ({
    port,
    host: '127.0.0.1',
    gatewayUrl: 'http://127.0.0.1:1',
    realtimeUrl: realtime.url,
    bodyLimit: '100kb',
    verification: { toleranceSeconds: 300, refetchIntervalMs: 60_000, fallbackPem: undefined },
    handOffTimeoutMs: 10_000,
    maxUnfinished: 100,
  });
  const settings = { log: createSilentLogger(), logSettings: { level: 'silent' as const } };

  test('when a signed delivery arrives, then the owner thread gets it once and Kick gets 200; when stopped, then the port is closed and the thread ends', async () => {
    const recording = aRecordingDoor(kickKey.publicPem);
    const front = await startFrontDoorThread(options(), recording.door, settings);

    const status = await post(front.port, kickKey.signed('k-1', new Date(), body), body);
    await front.stop();

    expect(status).toBe(200);
    expect(recording.accepted.map((delivery) => delivery.rawBody.toString('utf8'))).toEqual([body]);
    expect(await isRefused(front.port)).toBe(true);
  });

  test('when stopped while the owner thread is still on a delivery answered 200, then the stop ends only once that delivery is finished', async () => {
    const recording = aRecordingDoor(kickKey.publicPem);
    // the owner's work takes a few turns of its event loop, none of them held by the test
    recording.state.finish = () => new Promise((resolve) => setTimeout(resolve, 50));
    const front = await startFrontDoorThread(options(), recording.door, settings);

    const status = await post(front.port, kickKey.signed('k-2', new Date(), body), body);
    await front.stop();

    expect(status).toBe(200);
    expect(recording.finished).toEqual(['k-2']);
  });

  test('when a websocket upgrade for socket.io comes, then it is piped to realtime both ways', async () => {
    const front = await startFrontDoorThread(options(), aRecordingDoor(kickKey.publicPem).door, settings);
    const socket = connect(front.port, '127.0.0.1');
    socket.write(
      'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n',
    );
    const received = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('\r\n\r\n') && !text.endsWith('\r\n\r\n')) resolve(text);
        else if (text.endsWith('\r\n\r\n')) socket.write('ping');
      });
    });
    // stopping closes the open websocket too (it would otherwise hold the stop)
    await front.stop();
    socket.destroy();

    expect(received.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    expect(received.endsWith('\r\n\r\nping')).toBe(true);
  });

  test('when the public port is taken, then start fails with EADDRINUSE and no thread is left', async () => {
    const taken = await listenLocally(createServer());
    const start = startFrontDoorThread(options(taken.port), aRecordingDoor(kickKey.publicPem).door, settings);
    await expect(start).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await taken.close();
  });
});
