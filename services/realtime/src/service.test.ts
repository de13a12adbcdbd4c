import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { io as connectClient, type Socket } from 'socket.io-client';
import { createTokenSigner } from '@kickstand/platform/auth';
import { closeServer, listen, startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import type { ChatMessagePayload, ClientToServerEvents, ServerToClientEvents } from '@kickstand/platform/socket-events';
import { createTestPlatform, eventually, testKeyPair, type TestPlatform } from '@kickstand/platform/testing';
import { BotConnectionStatus, ChangeKind, UserChangeKind, UserRole } from '@kickstand/proto';
import { chatLinesSpec } from './repository';
import { createRealtimeService } from './service';
import { maxSocketsPerUser } from './socket-server';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EventName = keyof ServerToClientEvents;
type PayloadOf<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];

/** A connected dashboard: its socket and every event it received, in order. */
interface Dashboard {
  socket: ClientSocket;
  received: Array<{ event: string; payload: unknown }>;
  /** The payloads of one event received so far. */
  all<E extends EventName>(event: E): Array<PayloadOf<E>>;
  /** Waits for the next-or-earlier payload of an event (the first one not taken yet). */
  next<E extends EventName>(event: E): Promise<PayloadOf<E>>;
}

let platform: TestPlatform;
let running: RunningService;
const opened: ClientSocket[] = [];
const extraServices: RunningService[] = [];

beforeAll(async () => {
  platform = await createTestPlatform('realtime');
  running = await startHttpService(createRealtimeService(platform, { instanceId: 'main' }), { port: 0 });
});

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.disconnect();
  for (const service of extraServices.splice(0)) await service.stop();
});

afterAll(async () => {
  await running.stop();
  await platform.close();
});

/** Where dashboards connect: the service's own server, or another one serving its socket.io entry. */
type Listening = Pick<RunningService, 'port'>;

const urlOf = (service: Listening) => `http://127.0.0.1:${service.port}`;

const aUser = () => {
  const userId = `u-${randomUUID()}`;
  return { userId, token: platform.signToken({ userId, username: `name-${userId}`, role: 'USER' }) };
};

function openSocket(
  service: Listening,
  options: { token?: string; headers?: Record<string, string>; transports?: string[] } = {},
): ClientSocket {
  const socket: ClientSocket = connectClient(urlOf(service), {
    path: '/socket.io',
    transports: options.transports ?? ['websocket'],
    auth: options.token === undefined ? {} : { token: options.token },
    extraHeaders: options.headers,
    reconnection: false,
    forceNew: true,
  });
  opened.push(socket);
  return socket;
}

/** Connects and waits for the chat history, which comes right after the handshake. */
async function connect(
  token: string,
  service: Listening = running,
  options: { headers?: Record<string, string>; transports?: string[] } = {},
): Promise<Dashboard> {
  const socket = openSocket(service, { token, ...options });
  const received: Dashboard['received'] = [];
  const taken = new Map<string, number>();
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  const all = <E extends EventName>(event: E) =>
    received.filter((entry) => entry.event === event).map((entry) => entry.payload as PayloadOf<E>);
  const dashboard: Dashboard = {
    socket,
    received,
    all,
    next: async (event) => {
      const index = taken.get(event) ?? 0;
      let payload: PayloadOf<typeof event> | undefined;
      await eventually(() => {
        payload = all(event)[index];
        expect(payload).toBeDefined();
      });
      taken.set(event, index + 1);
      return payload as PayloadOf<typeof event>;
    },
  };
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await dashboard.next('chat-history');
  return dashboard;
}

/** Resolves with the connect_error message, or fails if the socket connects. */
function refusal(socket: ClientSocket): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected, but should have been refused')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

const at = (ms: number) => ({ seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 });
const base = Date.parse('2026-03-01T20:00:00Z');

let broadcasterSeq = 1000;
/** Each user's channel: a Kick broadcaster id of its own (the bus key). */
const channelOf = new Map<string, string>();
const broadcasterOf = (userId: string) => {
  if (!channelOf.has(userId)) channelOf.set(userId, String(++broadcasterSeq));
  return channelOf.get(userId) ?? '';
};

function chatReceived(
  userId: string,
  line: {
    messageId?: string;
    username?: string;
    content?: string;
    createdAtMs?: number;
    badges?: string[];
    replyToUsername?: string;
    isFromBot?: boolean;
  } = {},
) {
  const broadcaster = broadcasterOf(userId);
  return platform.bus.publish('chat.received', broadcaster, {
    eventId: randomUUID(),
    kickMessageId: randomUUID(),
    messageId: line.messageId ?? randomUUID(),
    broadcasterUserId: broadcaster,
    ownerUserId: userId,
    sender: {
      userId: '42',
      username: line.username ?? 'viewer_bob',
      identity: { usernameColor: '#FF0000', badges: (line.badges ?? []).map((type) => ({ type, text: type })) },
    },
    content: line.content ?? 'hello',
    createdAt: at(line.createdAtMs ?? base),
    receivedAt: at((line.createdAtMs ?? base) + 100),
    ...(line.replyToUsername
      ? { repliesTo: { messageId: randomUUID(), content: 'earlier', sender: { username: line.replyToUsername } } }
      : {}),
    isFromBot: line.isFromBot ?? false,
  });
}

describe('socket handshake', () => {
  test('when the token is forged, then the socket is refused with unauthorized', async () => {
    expect(await refusal(openSocket(running, { token: 'not-a-jwt' }))).toBe('unauthorized');
  });

  test('when there is no token, then the socket is refused with unauthorized', async () => {
    expect(await refusal(openSocket(running))).toBe('unauthorized');
  });

  test('when the token has expired, then the socket is refused with unauthorized', async () => {
    // signed two hours ago with a one-hour lifetime, by the key the service trusts
    const twoHoursAgo = { now: () => new Date(Date.now() - 2 * 3600_000) };
    const signer = createTokenSigner(testKeyPair().privateKeyPem, { expiresInSeconds: 3600, clock: twoHoursAgo });
    const expired = signer.sign({ userId: `u-${randomUUID()}`, username: 'late', role: 'USER' });
    expect(await refusal(openSocket(running, { token: expired }))).toBe('unauthorized');
  });

  test('when the token is good, then the socket connects and gets the (empty) chat history', async () => {
    const dashboard = await connect(aUser().token);
    expect(dashboard.all('chat-history')).toEqual([{ messages: [], events: [] }]);
  });

  test('when the token comes in an Authorization header over polling, then the socket connects', async () => {
    const user = aUser();
    const dashboard = await connect('', running, {
      headers: { authorization: `Bearer ${user.token}` },
      transports: ['polling'],
    });
    expect(dashboard.socket.connected).toBe(true);
  });
});

describe('sockets per user', () => {
  test('when a user opens 10 sockets, then the 11th is refused with a clear error, others are not, and a closed one frees its place', async () => {
    const user = aUser();
    const dashboards: Dashboard[] = [];
    for (let n = 0; n < maxSocketsPerUser; n++) dashboards.push(await connect(user.token));
    expect(maxSocketsPerUser).toBe(10);

    expect(await refusal(openSocket(running, { token: user.token }))).toBe(
      'too many connections: at most 10 open dashboards per user',
    );
    expect(dashboards.every((dashboard) => dashboard.socket.connected)).toBe(true);
    // another user is not affected
    expect((await connect(aUser().token)).socket.connected).toBe(true);

    dashboards[0]?.socket.disconnect();
    await eventually(async () => {
      const again = openSocket(running, { token: user.token });
      await new Promise<void>((resolve, reject) => {
        again.once('connect', resolve);
        again.once('connect_error', reject);
      });
    });
  });
});

describe('chat-history request', () => {
  test('when the client asks for the history again, then the acknowledgement carries it', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await chatReceived(user.userId, { messageId: 'asked-1', content: 'asked for' });
    await dashboard.next('chat-message');
    const history = await dashboard.socket.emitWithAck('chat-history');
    expect(history.messages.map((line) => line.id)).toEqual(['asked-1']);
  });
});

describe('chat.received', () => {
  test('when a chatter writes in the user channel, then the dashboard gets a chat-message with the exact payload', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await chatReceived(user.userId, {
      messageId: 'msg-1',
      username: 'mod_anna',
      content: '$test please',
      createdAtMs: base + 1500,
      badges: ['moderator', 'subscriber'],
      replyToUsername: 'viewer_bob',
    });
    expect(await dashboard.next('chat-message')).toEqual({
      id: 'msg-1',
      username: 'mod_anna',
      content: '$test please',
      timestamp: '2026-03-01T20:00:01.500Z',
      replyTo: 'viewer_bob',
      isModerator: true,
      isSubscriber: true,
      badges: [{ type: 'moderator' }, { type: 'subscriber' }],
      isBot: false,
    });
  });

  test("when a chat line is 90 KB, then it is shown and kept cut to Kick's 500 characters", async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await chatReceived(user.userId, { messageId: 'huge-1', content: 'x'.repeat(90_000) });
    expect((await dashboard.next('chat-message')).content).toBe('x'.repeat(500));
    await eventually(async () => {
      const response = await fetch(`${urlOf(running)}/api/realtime/chat`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      const body = (await response.json()) as { data: { messages: ChatMessagePayload[] } };
      expect(body.data.messages.map((line) => line.content)).toEqual(['x'.repeat(500)]);
    });
  });

  test('when a 90 KB line was kept by an older version, then the history hands it out cut to 500 characters', async () => {
    const user = aUser();
    const line: ChatMessagePayload = {
      id: 'old-huge',
      username: 'viewer_bob',
      content: 'z'.repeat(90_000),
      timestamp: '2026-03-01T20:00:00.000Z',
      replyTo: null,
      isModerator: false,
      isSubscriber: false,
      badges: [],
      isBot: false,
    };
    // kept as an older version kept it: uncut (the chat log is a recent log of the store now, not a collection)
    await platform.store.recentLog('chat-lines', chatLinesSpec).append(user.userId, 'old-huge', new Date(base), {
      payload: line,
    });
    const dashboard = await connect(user.token);
    const [history] = dashboard.all('chat-history');
    expect(history?.messages).toEqual([{ ...line, content: 'z'.repeat(500) }]);
  });

  test('when the line is the bot own one coming back from Kick, then it is not shown', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await chatReceived(user.userId, { content: 'from the bot', isFromBot: true });
    await chatReceived(user.userId, { content: 'from a viewer' });
    await dashboard.next('chat-message');
    expect(dashboard.all('chat-message').map((line) => line.content)).toEqual(['from a viewer']);
  });

  test('when 101 lines were written, then the history holds the newest 100 and the first is gone', async () => {
    const user = aUser();
    for (let n = 1; n <= 101; n++) {
      await chatReceived(user.userId, { messageId: `line-${n}`, content: `line ${n}`, createdAtMs: base + n * 1000 });
    }
    await eventually(async () => {
      const response = await fetch(`${urlOf(running)}/api/realtime/chat`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      const body = (await response.json()) as { success: boolean; data: { messages: ChatMessagePayload[] } };
      expect(body.success).toBe(true);
      expect(body.data.messages).toHaveLength(100);
      expect(body.data.messages[0]?.id).toBe('line-2');
      expect(body.data.messages[99]?.id).toBe('line-101');
    }, 10_000);
    // the store keeps no more than 100 either (its recent log holds each user's newest 100)
    const kept = await platform.store.recentLog('chat-lines', chatLinesSpec).recent(user.userId, 1000);
    expect(kept.map((item) => item.id)).toEqual(Array.from({ length: 100 }, (_, i) => `line-${i + 2}`));
    const dashboard = await connect(user.token);
    const [history] = dashboard.all('chat-history');
    expect(history?.messages.map((line) => line.content)).toEqual(
      Array.from({ length: 100 }, (_, i) => `line ${i + 2}`),
    );
  });
});

function kickEvent(userId: string, eventType: string, payload: unknown, kickMessageId: string = randomUUID()) {
  const broadcaster = broadcasterOf(userId);
  return platform.bus.publish('kick.event', broadcaster, {
    eventId: kickMessageId,
    kickMessageId,
    subscriptionId: 'sub-1',
    eventType,
    eventVersion: '1',
    messageTimestamp: at(base + 5000),
    broadcasterUserId: broadcaster,
    ownerUserId: userId,
    payloadJson: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

describe('kick.event', () => {
  test('when KICKs are gifted, then the dashboard gets a channel-event with the exact payload', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);

    await kickEvent(
      user.userId,
      'kicks.gifted',
      {
        broadcaster: { user_id: 1, username: 'streamer' },
        sender: { user_id: 2, username: 'generous' },
        gift: { amount: 100, name: 'Rage Quit', type: 'LEVEL_UP', tier: 'MID', message: 'gg', pinned_time_seconds: 0 },
        created_at: '2026-03-01T20:00:03Z',
      },
      'kick-msg-1',
    );

    expect(await dashboard.next('channel-event')).toEqual({
      id: 'event:kick-msg-1',
      kind: 'kicks-gifted',
      timestamp: '2026-03-01T20:00:03.000Z',
      username: 'generous',
      amount: 100,
      giftName: 'Rage Quit',
      message: 'gg',
    });
  });

  test('when a reward is redeemed with nulls and a cost as a string, then the channel-event has what could be read', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);

    await kickEvent(
      user.userId,
      'channel.reward.redemption.updated',
      {
        id: 'r1',
        user_input: null,
        status: 'pending',
        redeemed_at: null,
        reward: { id: 'w1', title: 'Song request', cost: '500', description: null },
        redeemer: { user_id: 3, username: 'viewer_c' },
        broadcaster: { user_id: 1 },
      },
      'kick-msg-2',
    );

    expect(await dashboard.next('channel-event')).toEqual({
      id: 'event:kick-msg-2',
      kind: 'reward-redeemed',
      // no redeemed_at: Kick's timestamp header
      timestamp: '2026-03-01T20:00:05.000Z',
      username: 'viewer_c',
      reward: 'Song request',
      cost: 500,
      input: '',
      status: 'pending',
    });
  });

  test.each([
    ['channel.followed', { follower: { username: 'new_fan' } }, { kind: 'followed', username: 'new_fan' }],
    [
      'channel.subscription.new',
      { subscriber: { username: 'first_timer' }, duration: 1, created_at: '2026-03-01T19:00:00Z' },
      { kind: 'subscribed', username: 'first_timer', months: 1 },
    ],
    [
      'channel.subscription.renewal',
      { subscriber: { username: 'loyal_one' }, duration: 7 },
      { kind: 'resubscribed', username: 'loyal_one', months: 7 },
    ],
    [
      'channel.subscription.gifts',
      {
        gifter: { is_anonymous: true, username: null },
        giftees: [{ username: 'a' }, { username: 'b' }],
        created_at: '2026-03-01T20:00:05Z',
      },
      { kind: 'subs-gifted', username: null, count: 2 },
    ],
  ])('when %s arrives, then it is a channel-event', async (type, payload, expected) => {
    const user = aUser();
    const dashboard = await connect(user.token);

    await kickEvent(user.userId, type, { broadcaster: { user_id: 1 }, ...payload }, 'kick-msg-x');

    expect(await dashboard.next('channel-event')).toEqual({
      id: 'event:kick-msg-x',
      timestamp: '2026-03-01T20:00:05.000Z',
      ...expected,
    });
  });

  test('when the event is not one shown in the chat (a ban, a stream going live) or its body is not JSON, then nothing is emitted', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);

    await kickEvent(user.userId, 'moderation.banned', { broadcaster: { user_id: 1 }, banned_user: { username: 'x' } });
    await kickEvent(user.userId, 'livestream.status.updated', { broadcaster: { user_id: 1 }, is_live: true });
    await kickEvent(user.userId, 'channel.followed', '{"broken":');
    await kickEvent(user.userId, 'channel.followed', { follower: { username: 'after' } });

    await dashboard.next('channel-event');
    expect(dashboard.all('channel-event').map((event) => event.username)).toEqual(['after']);
  });

  test('when events and messages came, then the history holds both, sharing the last 100', async () => {
    const user = aUser();
    for (let n = 1; n <= 99; n++) {
      await chatReceived(user.userId, { messageId: `m-${n}`, content: `line ${n}`, createdAtMs: base - 100_000 + n });
    }
    await kickEvent(user.userId, 'channel.followed', { follower: { username: 'fan_1' } }, 'f-1');
    await kickEvent(user.userId, 'channel.followed', { follower: { username: 'fan_2' } }, 'f-2');

    await eventually(async () => {
      const response = await fetch(`${urlOf(running)}/api/realtime/chat`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      const body = (await response.json()) as { data: { messages: ChatMessagePayload[]; events: { id: string }[] } };
      expect(body.data.events.map((event) => event.id)).toEqual(['event:f-1', 'event:f-2']);
      expect(body.data.messages).toHaveLength(98);
      expect(body.data.messages[0]?.id).toBe('m-2');
    }, 10_000);
    const dashboard = await connect(user.token);
    expect(dashboard.all('chat-history')[0]?.events?.map((event) => event.username)).toEqual(['fan_1', 'fan_2']);
  });
});

describe('chat.sent', () => {
  test('when Kick accepted the bot reply, then message-sent and one bot chat-message (Kickstand) arrive, and the echo is not shown again', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await platform.bus.publish('chat.sent', broadcasterOf(user.userId), {
      eventId: randomUUID(),
      idempotencyKey: 'reply:msg-7',
      broadcasterUserId: broadcasterOf(user.userId),
      ownerUserId: user.userId,
      isSent: true,
      messageId: 'bot-line-7',
      content: 'Hello! This is a test command.',
      replyToMessageId: 'msg-7',
      replyToUsername: 'viewer_bob',
      sentAt: at(base + 2000),
    });
    // the same line comes back through Kick's webhook, marked as the bot's
    await chatReceived(user.userId, {
      messageId: 'bot-line-7',
      content: 'Hello! This is a test command.',
      isFromBot: true,
    });
    expect(await dashboard.next('message-sent')).toEqual({
      content: 'Hello! This is a test command.',
      timestamp: '2026-03-01T20:00:02.000Z',
      replyTo: 'viewer_bob',
    });
    expect(await dashboard.next('chat-message')).toEqual({
      id: 'bot-line-7',
      username: 'Kickstand',
      content: 'Hello! This is a test command.',
      timestamp: '2026-03-01T20:00:02.000Z',
      replyTo: 'viewer_bob',
      isModerator: false,
      isSubscriber: false,
      badges: [],
      isBot: true,
    });
    await chatReceived(user.userId, { content: 'after' });
    await eventually(() => expect(dashboard.all('chat-message')).toHaveLength(2));
    expect(dashboard.all('chat-message').map((line) => line.content)).toEqual([
      'Hello! This is a test command.',
      'after',
    ]);
  });

  test('when Kick refused the bot line, then bot-error says the bot could not send it', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await platform.bus.publish('chat.sent', broadcasterOf(user.userId), {
      eventId: randomUUID(),
      ownerUserId: user.userId,
      isSent: false,
      error: 'Kick answered 403',
      content: 'never posted',
      sentAt: at(base + 3000),
    });
    expect(await dashboard.next('bot-error')).toEqual({
      message: 'The bot could not send a message: Kick answered 403',
      timestamp: '2026-03-01T20:00:03.000Z',
    });
    expect(dashboard.all('chat-message')).toEqual([]);
    expect(dashboard.all('message-sent')).toEqual([]);
  });
});

describe('bot.status', () => {
  test('when the bot connected, then bot-status carries the spec fields exactly', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await platform.bus.publish('bot.status', user.userId, {
      eventId: randomUUID(),
      userId: user.userId,
      isRunning: true,
      isConnected: true,
      status: BotConnectionStatus.CONNECTED,
      commandCount: 3,
    });
    expect(await dashboard.next('bot-status')).toEqual({
      isRunning: true,
      isConnected: true,
      connected: true,
      status: 'connected',
      commands: 3,
      notListeningReason: null,
      error: '',
    });
  });

  test('when the bot failed, then bot-error and the new bot-status arrive', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await platform.bus.publish('bot.status', user.userId, {
      eventId: randomUUID(),
      occurredAt: at(base + 4000),
      userId: user.userId,
      isRunning: true,
      isConnected: false,
      status: BotConnectionStatus.ERROR,
      commandCount: 1,
      error: 'Kick refused the chat subscription',
    });
    expect(await dashboard.next('bot-error')).toEqual({
      message: 'Kick refused the chat subscription',
      timestamp: '2026-03-01T20:00:04.000Z',
    });
    expect(await dashboard.next('bot-status')).toEqual({
      isRunning: true,
      isConnected: false,
      connected: false,
      status: 'disconnected',
      commands: 1,
      notListeningReason: null,
      error: 'Kick refused the chat subscription',
    });
  });
});

describe('command.executed and command.changed', () => {
  test('when a command ran, then command-executed names it, the chatter, the answer and the time', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await platform.bus.publish('command.executed', user.userId, {
      eventId: randomUUID(),
      ownerUserId: user.userId,
      command: 'test',
      invokedByUsername: 'viewer_bob',
      response: 'Hello!',
      executedAt: at(base + 5000),
    });
    expect(await dashboard.next('command-executed')).toEqual({
      command: 'test',
      user: 'viewer_bob',
      response: 'Hello!',
      timestamp: '2026-03-01T20:00:05.000Z',
    });
  });

  test('when a command was added and then removed, then command-added and command-removed arrive', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    const change = (kind: ChangeKind) =>
      platform.bus.publish('command.changed', user.userId, {
        eventId: randomUUID(),
        userId: user.userId,
        kind,
        command: 'hello',
        response: 'hi there',
      });
    await change(ChangeKind.ADDED);
    await change(ChangeKind.REMOVED);
    expect(await dashboard.next('command-added')).toEqual({ command: 'hello', response: 'hi there' });
    expect(await dashboard.next('command-removed')).toEqual({ command: 'hello' });
  });

  test('when a command is renamed (UPDATED), then the old name is removed and the command as it is now is added', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    await platform.bus.publish('command.changed', user.userId, {
      eventId: randomUUID(),
      userId: user.userId,
      kind: ChangeKind.UPDATED,
      command: 'Discord',
      previousCommand: 'disc',
      response: 'join us',
    });
    expect(await dashboard.next('command-removed')).toEqual({ command: 'disc' });
    expect(await dashboard.next('command-added')).toEqual({ command: 'Discord', response: 'join us' });
  });
});

describe('rooms', () => {
  test('when events for user A arrive, then they never reach user B socket', async () => {
    const a = aUser();
    const b = aUser();
    const dashboardA = await connect(a.token);
    const dashboardB = await connect(b.token);
    await chatReceived(a.userId, { content: 'for A' });
    await platform.bus.publish('bot.status', a.userId, { userId: a.userId, isRunning: true });
    await platform.bus.publish('command.changed', a.userId, {
      userId: a.userId,
      kind: ChangeKind.ADDED,
      command: 'a',
      response: 'a',
    });
    await dashboardA.next('chat-message');
    await dashboardA.next('bot-status');
    await dashboardA.next('command-added');
    // B's own event arrives, and nothing of A's ever did
    await chatReceived(b.userId, { content: 'for B' });
    await dashboardB.next('chat-message');
    expect(dashboardB.received.map(({ event }) => event)).toEqual(['chat-history', 'chat-message']);
    expect(dashboardB.all('chat-message').map((line) => line.content)).toEqual(['for B']);
  });
});

describe('restarts and several instances', () => {
  test('when the service restarts on the same store, then the history is still there', async () => {
    const user = aUser();
    const first = await startHttpService(createRealtimeService(platform, { instanceId: 'restart' }), { port: 0 });
    await chatReceived(user.userId, { messageId: 'kept-1', content: 'before the restart', createdAtMs: base + 1 });
    await eventually(async () => {
      const dashboard = await connect(user.token, first);
      expect(dashboard.all('chat-history')[0]?.messages.map((line) => line.id)).toEqual(['kept-1']);
    });
    await first.stop();
    const second = await startHttpService(createRealtimeService(platform, { instanceId: 'restart' }), { port: 0 });
    extraServices.push(second);
    const dashboard = await connect(user.token, second);
    expect(dashboard.all('chat-history')[0]?.messages.map((line) => line.content)).toEqual(['before the restart']);
  });

  test('when two instances share the bus, then each delivers the event to the socket it holds', async () => {
    const user = aUser();
    const left = await startHttpService(createRealtimeService(platform, { instanceId: 'left' }), { port: 0 });
    const right = await startHttpService(createRealtimeService(platform, { instanceId: 'right' }), { port: 0 });
    extraServices.push(left, right);
    const onLeft = await connect(user.token, left);
    const onRight = await connect(user.token, right);
    await chatReceived(user.userId, { messageId: 'both-1', content: 'seen twice' });
    expect((await onLeft.next('chat-message')).id).toBe('both-1');
    expect((await onRight.next('chat-message')).id).toBe('both-1');
    // every instance wrote the same line: the shared history holds it once
    const later = await connect(user.token, right);
    expect(later.all('chat-history')[0]?.messages.map((line) => line.id)).toEqual(['both-1']);
  });

  test('when a dashboard is connected, then stopping the service ends promptly and closes the socket', async () => {
    const user = aUser();
    const service = await startHttpService(createRealtimeService(platform, { instanceId: 'stopping' }), { port: 0 });
    const dashboard = await connect(user.token, service);
    const disconnected = new Promise<string>((resolve) => dashboard.socket.once('disconnect', resolve));
    const startedAt = Date.now();
    await service.stop();
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(await disconnected).toBeDefined();
  });
});

describe("socket.io's entry on another HTTP server (the gateway's, in single-machine mode)", () => {
  test('when dashboards connect through another server of the process, then each dashboard of a channel gets every line once, in order, and no other channel line', async () => {
    const service = createRealtimeService(platform, { instanceId: 'entry' });
    const entry = service.socketIo;
    if (!entry) throw new Error('realtime has no socket.io entry');
    extraServices.push(await startHttpService(service, { port: 0 }));
    const front = createServer((req, res) => entry.handleRequest(req, res));
    front.on('upgrade', (req, socket, head) => entry.handleUpgrade(req, socket, head));
    const port = await listen(front, 0, '127.0.0.1');
    try {
      const a = aUser();
      const b = aUser();
      const ofA = [
        await connect(a.token, { port }),
        await connect(a.token, { port }),
        await connect(a.token, { port }, { transports: ['polling'] }),
      ];
      const ofB = await connect(b.token, { port });
      const linesOfA = ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'];
      for (const [n, id] of linesOfA.entries()) {
        await chatReceived(a.userId, { messageId: id, content: `line ${n}` });
        if (n === 2) await chatReceived(b.userId, { messageId: 'b-1', content: 'for b' });
      }
      for (const dashboard of ofA) {
        await eventually(() => expect(dashboard.all('chat-message')).toHaveLength(5));
        expect(dashboard.all('chat-message').map((line) => line.id)).toEqual(linesOfA);
      }
      await ofB.next('chat-message');
      expect(ofB.all('chat-message').map((line) => line.id)).toEqual(['b-1']);
    } finally {
      for (const socket of opened.splice(0)) socket.disconnect();
      front.closeAllConnections();
      await closeServer(front);
    }
  });
});

describe('user.changed', () => {
  test('when the user is deactivated, then their socket is closed and a new one is refused until they are activated again', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    const disconnected = new Promise<string>((resolve) => dashboard.socket.once('disconnect', resolve));
    const change = (kind: UserChangeKind, isActive: boolean) =>
      platform.bus.publish('user.changed', user.userId, {
        eventId: randomUUID(),
        userId: user.userId,
        kind,
        username: `name-${user.userId}`,
        role: UserRole.USER,
        isActive,
      });
    await change(UserChangeKind.DEACTIVATED, false);
    expect(await disconnected).toBe('io server disconnect');
    expect(await refusal(openSocket(running, { token: user.token }))).toBe('unauthorized');
    await change(UserChangeKind.ACTIVATED, true);
    await eventually(async () => {
      const again = await connect(user.token);
      expect(again.socket.connected).toBe(true);
    });
  });

  test('when the user signs out (token version 1), then their socket is closed, and the old token is refused at the handshake and on GET /api/realtime/chat', async () => {
    const user = aUser();
    const dashboard = await connect(user.token);
    const disconnected = new Promise<string>((resolve) => dashboard.socket.once('disconnect', resolve));
    await platform.bus.publish('user.changed', user.userId, {
      eventId: randomUUID(),
      userId: user.userId,
      kind: UserChangeKind.SIGNED_OUT,
      username: `name-${user.userId}`,
      role: UserRole.USER,
      isActive: true,
      tokenVersion: 1,
    });
    expect(await disconnected).toBe('io server disconnect');
    expect(await refusal(openSocket(running, { token: user.token }))).toBe('unauthorized');
    const response = await fetch(`${urlOf(running)}/api/realtime/chat`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Your session has ended: please sign in again' });
  });
});

describe('GET /api/realtime/chat', () => {
  test('when there is no token, then 401', async () => {
    const response = await fetch(`${urlOf(running)}/api/realtime/chat`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false });
  });
});
