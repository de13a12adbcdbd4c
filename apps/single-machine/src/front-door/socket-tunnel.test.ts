import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { MessageChannel } from 'node:worker_threads';
import { io as connectClient, type Socket } from 'socket.io-client';
import { closeServer, listen, startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createSilentLogger } from '@kickstand/platform/log';
import type { ChatMessagePayload } from '@kickstand/platform/socket-events';
import { createTestPlatform, eventually, type TestPlatform } from '@kickstand/platform/testing';
import { UserChangeKind, UserRole } from '@kickstand/proto';
import { createRealtimeService } from '@kickstand/realtime';
import { createSocketTunnelFront, type SocketTunnelFront } from './socket-tunnel-front';
import { serveSocketTunnel, type SocketTunnelOwner } from './socket-tunnel-owner';

// Both ends of the tunnel in one thread, over a MessageChannel as between the two threads; behind
// it realtime's own service (handshake, rooms, events), and in front a plain HTTP server taking the
// upgrades, as the front door does.
let platform: TestPlatform;
let realtime: RunningService;
let owner: SocketTunnelOwner;
let tunnel: SocketTunnelFront;
let front: Server;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  platform = await createTestPlatform('realtime');
  const service = createRealtimeService(platform, { instanceId: 'tunnel' });
  const entry = service.socketIo;
  if (!entry) throw new Error('realtime has no socket.io entry');
  realtime = await startHttpService(service, { port: 0 });
  const channel = new MessageChannel();
  owner = serveSocketTunnel(channel.port2, entry);
  tunnel = createSocketTunnelFront(channel.port1, createSilentLogger());
  front = createServer((_req, res) => res.writeHead(404).end());
  front.on('upgrade', (req, socket, head) => tunnel.upgrade(req, socket, head));
  url = `http://127.0.0.1:${await listen(front, 0, '127.0.0.1')}`;
});

afterEach(() => {
  for (const socket of opened.splice(0)) socket.disconnect();
});

afterAll(async () => {
  tunnel.close();
  owner.close();
  front.closeAllConnections();
  await closeServer(front);
  await realtime.stop();
  await platform.close();
});

const aUser = () => {
  const userId = `u-${randomUUID()}`;
  return { userId, token: platform.signToken({ userId, username: `name-${userId}`, role: 'USER' }) };
};

function open(token: string): Socket {
  const socket = connectClient(url, {
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  opened.push(socket);
  return socket;
}

/** Connects and collects every chat-message; resolves once the chat history came. */
async function dashboard(token: string) {
  const socket = open(token);
  const lines: ChatMessagePayload[] = [];
  socket.on('chat-message', (line: ChatMessagePayload) => lines.push(line));
  await new Promise<void>((resolve, reject) => {
    socket.once('chat-history', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, lines };
}

// each user's channel: a Kick broadcaster id of its own (the bus key)
const broadcasters = new Map<string, string>();
const broadcasterOf = (userId: string) => {
  if (!broadcasters.has(userId)) broadcasters.set(userId, String(1000 + broadcasters.size));
  return broadcasters.get(userId) ?? '';
};

const chatReceived = (userId: string, messageId: string, content: string) =>
  platform.bus.publish('chat.received', broadcasterOf(userId), {
    eventId: randomUUID(),
    kickMessageId: randomUUID(),
    messageId,
    broadcasterUserId: broadcasterOf(userId),
    ownerUserId: userId,
    sender: { userId: '42', username: 'viewer_bob', identity: { usernameColor: '#FF0000', badges: [] } },
    content,
    createdAt: { seconds: 1_772_395_200n, nanos: 0 },
    isFromBot: false,
  });

describe('the socket.io tunnel between the front door and the owner thread', () => {
  test('when the token is forged, then the dashboard is refused with unauthorized', async () => {
    const socket = open('not-a-jwt');
    const message = await new Promise<string>((resolve, reject) => {
      socket.once('connect', () => reject(new Error('connected, but should have been refused')));
      socket.once('connect_error', (error) => resolve(error.message));
    });
    expect(message).toBe('unauthorized');
  });

  test('when two users connect through it, then each dashboard gets its channel lines once, in order, and no other', async () => {
    const a = aUser();
    const b = aUser();
    const ofA = [await dashboard(a.token), await dashboard(a.token)];
    const ofB = await dashboard(b.token);
    const linesOfA = ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'];
    for (const [n, id] of linesOfA.entries()) {
      await chatReceived(a.userId, id, `line ${n}`);
      if (n === 2) await chatReceived(b.userId, 'b-1', 'for b');
    }
    for (const { lines } of ofA) {
      await eventually(() => expect(lines).toHaveLength(5));
      expect(lines.map((line) => line.id)).toEqual(linesOfA);
      expect(lines[0]).toMatchObject({ id: 'a-1', username: 'viewer_bob', content: 'line 0' });
    }
    await eventually(() => expect(ofB.lines.map((line) => line.id)).toEqual(['b-1']));
  });

  test('when a dashboard asks for the chat history, then the answer comes back through the tunnel', async () => {
    const user = aUser();
    const { socket } = await dashboard(user.token);
    await chatReceived(user.userId, 'h-1', 'kept');
    await eventually(async () => {
      const history = (await socket.timeout(2000).emitWithAck('chat-history')) as { messages: { id: string }[] };
      expect(history.messages.map((line) => line.id)).toEqual(['h-1']);
    });
  });

  test('when the dashboard disconnects, then its socket is gone in the owner thread too: the user may open 10 again', async () => {
    const user = aUser();
    const first = await dashboard(user.token);
    const others = [];
    for (let n = 1; n < 10; n++) others.push(await dashboard(user.token));
    first.socket.disconnect();
    await eventually(async () => {
      const again = await dashboard(user.token);
      expect(again.socket.connected).toBe(true);
    });
    expect(others.every(({ socket }) => socket.connected)).toBe(true);
  });

  test('when realtime closes a dashboard (its user is deactivated), then the dashboard hears it through the tunnel', async () => {
    const user = aUser();
    const { socket } = await dashboard(user.token);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await platform.bus.publish('user.changed', user.userId, {
      eventId: randomUUID(),
      userId: user.userId,
      kind: UserChangeKind.DEACTIVATED,
      username: `name-${user.userId}`,
      role: UserRole.USER,
      isActive: false,
    });
    expect(await disconnected).toBe('io server disconnect');
  });
});
