import { randomInt, randomUUID } from 'node:crypto';
import { kickstandTopics, type KickstandBus, type KickstandTopics } from '@kickstand/platform/bus';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { processMetrics } from '@kickstand/platform/metrics';
import {
  createFakeClock,
  createTestPlatform,
  eventually,
  histogramTotals,
  recordPublished,
  type FakeClock,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import {
  BotConnectionStatus,
  BotControlAction,
  ChangeKind,
  ChatOrigin,
  ChatSubscriptionState,
  KickAccountChangeKind,
  UserChangeKind,
  UserRole,
  commandSettingsToProto,
  timestampFromDate,
} from '@kickstand/proto';
import { defaultCommandSettings, type CommandSettings } from '@kickstand/api-contract';
import { createBotsRepository } from './repository';
import { createBotRunnerService, type BotRunnerOptions } from './service';

interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; message?: string; error?: string };
}

interface Caller {
  get(path: string): Promise<Answer>;
  post(path: string, options?: { requestId?: string }): Promise<Answer>;
}

interface Streamer extends Caller {
  id: string;
  username: string;
  broadcasterId: string;
  kickUsername: string;
}

/** Answers `{random:A-B}` with A, so replies are predictable. */
const lowestRandom = { intBetween: (min: number) => min };

/** One running bot-runner on port 0 over the embedded adapters, with a fake clock. */
interface Harness {
  platform: TestPlatform;
  clock: FakeClock;
  recorded: RecordedBus<KickstandTopics>;
  running: RunningService;
  baseUrl: string;
  /** Starts the service again on the same store and bus (a restart). */
  restart(): Promise<void>;
  /** Starts a second instance on the same store and bus; `running` stays the first. */
  startAnotherInstance(): Promise<RunningService>;
  close(): Promise<void>;
}

async function startHarness(
  options: BotRunnerOptions = {},
  wrapBus?: (bus: KickstandBus) => KickstandBus,
): Promise<Harness> {
  const clock = createFakeClock();
  const platform = await createTestPlatform('bot-runner', { clock });
  const recorded = recordPublished(platform.bus, kickstandTopics);
  const bus = wrapBus ? wrapBus(recorded.bus) : recorded.bus;
  const create = () => createBotRunnerService({ ...platform, bus }, { random: lowestRandom, ...options });
  const harness: Harness = {
    platform,
    clock,
    recorded,
    running: await startHttpService(create(), { port: 0 }),
    baseUrl: '',
    restart: async () => {
      await harness.running.stop();
      harness.running = await startHttpService(create(), { port: 0 });
      harness.baseUrl = `http://127.0.0.1:${harness.running.port}`;
    },
    startAnotherInstance: () => startHttpService(create(), { port: 0 }),
    close: async () => {
      await harness.running.stop();
      await platform.close();
    },
  };
  harness.baseUrl = `http://127.0.0.1:${harness.running.port}`;
  return harness;
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

function callerWith(harness: Harness, token: string | undefined): Caller {
  const send = async (method: string, path: string, requestId?: string): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (requestId) headers['x-request-id'] = requestId;
    const response = await fetch(`${harness.baseUrl}${path}`, { method, headers });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  return { get: (path) => send('GET', path), post: (path, options) => send('POST', path, options?.requestId) };
}

function aStreamer(harness = h): Streamer {
  const id = `u-${randomUUID()}`;
  const username = `streamer_${id.slice(2, 10)}`;
  const token = harness.platform.signToken({ userId: id, username, role: 'USER' });
  return {
    id,
    username,
    broadcasterId: String(randomInt(1, 2 ** 47)),
    kickUsername: `kick_${id.slice(2, 10)}`,
    ...callerWith(harness, token),
  };
}

function anAdmin(harness = h): Caller & { id: string; username: string } {
  const id = `admin-${randomUUID()}`;
  const token = harness.platform.signToken({ userId: id, username: 'admin', role: 'SUPER_ADMIN' });
  return { id, username: 'admin', ...callerWith(harness, token) };
}

const storedBot = (userId: string, harness = h) => createBotsRepository(harness.platform.store).get(userId);

function publishUserChanged(streamer: Streamer, kind: UserChangeKind, isActive = true, harness = h) {
  return harness.platform.bus.publish('user.changed', streamer.id, {
    eventId: randomUUID(),
    occurredAt: timestampFromDate(harness.clock.now()),
    userId: streamer.id,
    kind,
    username: streamer.username,
    role: UserRole.USER,
    isActive,
  });
}

function publishKickAccount(streamer: Streamer, kind: KickAccountChangeKind, harness = h) {
  return harness.platform.bus.publish('kick.account', streamer.id, {
    eventId: randomUUID(),
    occurredAt: timestampFromDate(harness.clock.now()),
    userId: streamer.id,
    kind,
    kickUserId: streamer.broadcasterId,
    kickUsername: streamer.kickUsername,
  });
}

function publishCommandChanged(streamer: Streamer, kind: ChangeKind, command: string, response = '', harness = h) {
  return harness.platform.bus.publish('command.changed', streamer.id, {
    eventId: randomUUID(),
    occurredAt: timestampFromDate(harness.clock.now()),
    userId: streamer.id,
    kind,
    command,
    response,
  });
}

/** command.changed UPDATED: the commands service's edit (a rename when `previous` differs). */
function publishCommandUpdated(
  streamer: Streamer,
  previous: string,
  command: string,
  response: string,
  settings: Partial<CommandSettings> = {},
) {
  return h.platform.bus.publish('command.changed', streamer.id, {
    eventId: randomUUID(),
    occurredAt: timestampFromDate(h.clock.now()),
    userId: streamer.id,
    kind: ChangeKind.UPDATED,
    command,
    previousCommand: previous,
    response,
    settings: commandSettingsToProto({ ...defaultCommandSettings, ...settings }),
  });
}

/** Waits until the stored read model has the command with these settings. */
async function settled(streamer: Streamer, command: string, settings: Partial<CommandSettings> = {}) {
  await eventually(async () =>
    expect((await storedBot(streamer.id))?.commands).toContainEqual(
      expect.objectContaining({ command, settings: { ...defaultCommandSettings, ...settings } }),
    ),
  );
}

function publishSubscription(
  streamer: Streamer,
  state: ChatSubscriptionState,
  options: { error?: string; requestId?: string } = {},
  harness = h,
) {
  return harness.platform.bus.publish('chat.subscription', streamer.id, {
    eventId: randomUUID(),
    occurredAt: timestampFromDate(harness.clock.now()),
    userId: streamer.id,
    broadcasterUserId: streamer.broadcasterId,
    state,
    error: options.error ?? '',
    requestId: options.requestId ?? '',
  });
}

interface ChatOptions {
  messageId?: string;
  isFromBot?: boolean;
  sender?: string;
  /** The bus key; the streamer's channel unless told. */
  key?: string;
  harness?: Harness;
  /** When the webhook received it; the harness clock's now unless told. */
  receivedAt?: Date;
  /** Kick's created_at; unset (the arrival counts) unless told. */
  createdAt?: Date;
  /** The sender's Kick user id; 777 unless told. */
  senderUserId?: string;
  /** The sender's badge types; a subscriber's unless told. */
  badges?: string[];
}

const receivedAt = new Date('2026-01-01T00:00:00.250Z');

/** A chat line in the streamer's channel; returns its message id. */
async function chat(streamer: Streamer, content: string, options: ChatOptions = {}): Promise<string> {
  const harness = options.harness ?? h;
  const messageId = options.messageId ?? randomUUID();
  const sender = options.sender ?? 'viewer_one';
  await harness.platform.bus.publish('chat.received', options.key ?? streamer.broadcasterId, {
    eventId: randomUUID(),
    occurredAt: timestampFromDate(harness.clock.now()),
    kickMessageId: `01K${randomUUID()}`,
    messageId,
    broadcasterUserId: streamer.broadcasterId,
    broadcasterUsername: streamer.kickUsername,
    broadcasterChannelSlug: streamer.kickUsername,
    ownerUserId: streamer.id,
    sender: {
      userId: options.senderUserId ?? '777',
      username: sender,
      channelSlug: sender,
      identity: {
        usernameColor: '#FFFFFF',
        badges: (options.badges ?? ['subscriber']).map((type) => ({ text: type, type, count: 0 })),
      },
    },
    content,
    receivedAt: timestampFromDate(options.receivedAt ?? harness.clock.now()),
    ...(options.createdAt ? { createdAt: timestampFromDate(options.createdAt) } : {}),
    isFromBot: options.isFromBot ?? false,
  });
  return messageId;
}

const sendsTo = (streamer: Streamer, harness = h) =>
  harness.recorded.publishedWithKeys('chat.send').filter(({ message }) => message.ownerUserId === streamer.id);
const executedFor = (streamer: Streamer, harness = h) =>
  harness.recorded.published('command.executed').filter((message) => message.ownerUserId === streamer.id);
const controlsOf = (streamer: Streamer, harness = h) =>
  harness.recorded.publishedWithKeys('bot.control').filter(({ message }) => message.userId === streamer.id);
const statusesOf = (streamer: Streamer, harness = h) =>
  harness.recorded.publishedWithKeys('bot.status').filter(({ message }) => message.userId === streamer.id);
const lastStatusOf = (streamer: Streamer, harness = h) => statusesOf(streamer, harness).at(-1)?.message;

/** The reply to one chat line, once it is published. */
async function replyTo(streamer: Streamer, messageId: string, harness = h) {
  let reply: ReturnType<typeof sendsTo>[number] | undefined;
  await eventually(() => {
    reply = sendsTo(streamer, harness).find(({ message }) => message.replyToMessageId === messageId);
    expect(reply).toBeDefined();
  });
  return reply!;
}

/** A streamer the service knows: created, linked to Kick, with the default command `test`. */
async function aLinkedStreamer(harness = h): Promise<Streamer> {
  const streamer = aStreamer(harness);
  await publishUserChanged(streamer, UserChangeKind.CREATED, true, harness);
  await publishKickAccount(streamer, KickAccountChangeKind.LINKED, harness);
  await publishCommandChanged(
    streamer,
    ChangeKind.ADDED,
    'test',
    'Hello! This is a test command. The bot is working correctly!',
    harness,
  );
  await eventually(async () => {
    expect(await storedBot(streamer.id, harness)).toMatchObject({
      seen: true,
      username: streamer.username,
      kick: { broadcasterUserId: streamer.broadcasterId },
      commands: [{ key: 'test' }],
    });
    // the store is written before bot.status goes out: a test counting statuses starts after it
    expect(lastStatusOf(streamer, harness)?.commandCount).toBe(1);
  });
  return streamer;
}

/** A linked streamer whose bot was started (and, unless told, is connected). */
async function aRunningStreamer(harness = h): Promise<Streamer> {
  const streamer = await aLinkedStreamer(harness);
  expect((await streamer.post('/api/platform/bot/start')).status).toBe(200);
  return streamer;
}

async function addCommand(streamer: Streamer, command: string, response: string, harness = h): Promise<void> {
  const before = (await storedBot(streamer.id, harness))?.commands.length ?? 0;
  await publishCommandChanged(streamer, ChangeKind.ADDED, command, response, harness);
  await eventually(async () => expect((await storedBot(streamer.id, harness))?.commands).toHaveLength(before + 1));
}

describe('GET /api/platform/bot/status', () => {
  test('when the user is new, then the bot is stopped and disconnected with no commands', async () => {
    const streamer = aStreamer();

    const answer = await streamer.get('/api/platform/bot/status');

    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        data: {
          isRunning: false,
          isConnected: false,
          connected: false,
          status: 'disconnected',
          commands: 0,
          notListeningReason: 'not-linked',
          error: '',
        },
      },
    });
  });

  test('when there is no token, then 401', async () => {
    const answer = await callerWith(h, undefined).get('/api/platform/bot/status');

    expect(answer.status).toBe(401);
    expect(answer.body.success).toBe(false);
  });
});

describe('POST /api/platform/bot/start', () => {
  test('when no Kick account is linked, then 400 with the message and nothing is published', async () => {
    const streamer = aStreamer();
    await publishUserChanged(streamer, UserChangeKind.CREATED);
    await eventually(async () => expect(await storedBot(streamer.id)).toMatchObject({ seen: true }));

    const answer = await streamer.post('/api/platform/bot/start');

    expect(answer).toEqual({
      status: 400,
      body: { success: false, error: 'Link your Kick account before starting the bot.' },
    });
    expect(controlsOf(streamer)).toEqual([]);
    expect(statusesOf(streamer)).toEqual([]);
  });

  test('when an administrator disabled the bot, then 403 with the message', async () => {
    const streamer = await aLinkedStreamer();
    expect((await anAdmin().post(`/api/admin/users/${streamer.id}/bot/disable`)).status).toBe(200);

    const answer = await streamer.post('/api/platform/bot/start');

    expect(answer).toEqual({
      status: 403,
      body: { success: false, error: 'Your bot has been disabled by an administrator.' },
    });
    expect(controlsOf(streamer)).toEqual([]);
  });

  test('when the account was deactivated, then 401 with the message (the platform refuses the token, as the gateway does)', async () => {
    const streamer = await aLinkedStreamer();
    await publishUserChanged(streamer, UserChangeKind.DEACTIVATED, false);
    await eventually(async () => expect(await storedBot(streamer.id)).toMatchObject({ isActive: false }));
    // the token check learns it on a consumer of its own: a read that changes nothing waits for it
    await eventually(async () => expect((await streamer.get('/api/platform/bot/status')).status).toBe(401));

    const answer = await streamer.post('/api/platform/bot/start');

    expect(answer).toEqual({ status: 401, body: { success: false, error: 'Your account has been deactivated' } });
  });

  test('when the bot can start, then 200 "Bot started", bot.control START with the request id and bot.status running', async () => {
    const streamer = await aLinkedStreamer();

    const answer = await streamer.post('/api/platform/bot/start', { requestId: 'req-start-1' });

    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        message: 'Bot started',
        data: {
          isRunning: true,
          isConnected: false,
          connected: false,
          status: 'disconnected',
          commands: 1,
          notListeningReason: 'connecting',
          error: '',
        },
      },
    });
    const controls = controlsOf(streamer);
    expect(controls).toHaveLength(1);
    expect(controls[0]?.key).toBe(streamer.id);
    expect(controls[0]?.message).toMatchObject({
      userId: streamer.id,
      broadcasterUserId: streamer.broadcasterId,
      action: BotControlAction.START,
      requestId: 'req-start-1',
    });
    expect(controls[0]?.message.eventId).not.toBe('');
    const statuses = statusesOf(streamer);
    expect(statuses.at(-1)?.key).toBe(streamer.id);
    expect(statuses.at(-1)?.message).toMatchObject({
      userId: streamer.id,
      broadcasterUserId: streamer.broadcasterId,
      isRunning: true,
      isConnected: false,
      status: BotConnectionStatus.DISCONNECTED,
      commandCount: 1,
      botEnabled: true,
      error: '',
    });
  });

  test('when the bot already runs, then 200 with the status and nothing new is published', async () => {
    const streamer = await aRunningStreamer();
    const controls = controlsOf(streamer).length;
    const statuses = statusesOf(streamer).length;

    const answer = await streamer.post('/api/platform/bot/start');

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, message: 'Bot is already running', data: { isRunning: true } });
    expect(controlsOf(streamer)).toHaveLength(controls);
    expect(statusesOf(streamer)).toHaveLength(statuses);
  });

  test('when the chat subscription failed, then starting again sends START again', async () => {
    const streamer = await aRunningStreamer();
    await publishSubscription(streamer, ChatSubscriptionState.FAILED, { error: 'Kick said no' });
    await eventually(() => expect(lastStatusOf(streamer)?.status).toBe(BotConnectionStatus.ERROR));

    const answer = await streamer.post('/api/platform/bot/start');

    expect(answer.body.message).toBe('Bot started');
    expect(controlsOf(streamer).map(({ message }) => message.action)).toEqual([
      BotControlAction.START,
      BotControlAction.START,
    ]);
    expect(lastStatusOf(streamer)).toMatchObject({
      isRunning: true,
      status: BotConnectionStatus.DISCONNECTED,
      error: '',
    });
  });
});

describe('chat.subscription', () => {
  test('when ACTIVE answers the start, then the bot is connected: bot.status CONNECTED and the status route says so', async () => {
    const streamer = await aLinkedStreamer();
    await streamer.post('/api/platform/bot/start', { requestId: 'req-connect' });

    await publishSubscription(streamer, ChatSubscriptionState.ACTIVE, { requestId: 'req-connect' });

    await eventually(() =>
      expect(lastStatusOf(streamer)).toMatchObject({
        isRunning: true,
        isConnected: true,
        status: BotConnectionStatus.CONNECTED,
      }),
    );
    expect((await streamer.get('/api/platform/bot/status')).body.data).toEqual({
      isRunning: true,
      isConnected: true,
      connected: true,
      status: 'connected',
      commands: 1,
      notListeningReason: null,
      error: '',
    });
  });

  test('when FAILED arrives, then bot.status ERROR carries the error and the bot is disconnected', async () => {
    const streamer = await aRunningStreamer();

    await publishSubscription(streamer, ChatSubscriptionState.FAILED, { error: 'Kick refused the subscription' });

    await eventually(() =>
      expect(lastStatusOf(streamer)).toMatchObject({
        isRunning: true,
        isConnected: false,
        status: BotConnectionStatus.ERROR,
        error: 'Kick refused the subscription',
      }),
    );
    expect((await streamer.get('/api/platform/bot/status')).body.data).toMatchObject({
      isConnected: false,
      status: 'disconnected',
    });
  });

  test('when INACTIVE arrives for a connected bot, then it is disconnected but still running', async () => {
    const streamer = await aRunningStreamer();
    await publishSubscription(streamer, ChatSubscriptionState.ACTIVE);
    await eventually(() => expect(lastStatusOf(streamer)?.isConnected).toBe(true));

    await publishSubscription(streamer, ChatSubscriptionState.INACTIVE);

    await eventually(() =>
      expect(lastStatusOf(streamer)).toMatchObject({
        isRunning: true,
        isConnected: false,
        status: BotConnectionStatus.DISCONNECTED,
      }),
    );
  });

  test('when an answer to an older request arrives, then it changes nothing', async () => {
    const streamer = await aLinkedStreamer();
    await streamer.post('/api/platform/bot/start', { requestId: 'req-old' });
    await streamer.post('/api/platform/bot/stop', { requestId: 'req-stop' });
    await streamer.post('/api/platform/bot/start', { requestId: 'req-new' });
    const statuses = statusesOf(streamer).length;

    await publishSubscription(streamer, ChatSubscriptionState.ACTIVE, { requestId: 'req-old' });
    await publishSubscription(streamer, ChatSubscriptionState.ACTIVE, { requestId: 'req-new' });

    await eventually(() => expect(lastStatusOf(streamer)?.isConnected).toBe(true));
    expect(statusesOf(streamer)).toHaveLength(statuses + 1);
  });
});

describe('POST /api/platform/bot/stop', () => {
  test('when the bot runs, then 200 "Bot stopped", bot.control STOP and bot.status stopped', async () => {
    const streamer = await aRunningStreamer();

    const answer = await streamer.post('/api/platform/bot/stop', { requestId: 'req-stop-1' });

    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        message: 'Bot stopped',
        data: {
          isRunning: false,
          isConnected: false,
          connected: false,
          status: 'disconnected',
          commands: 1,
          notListeningReason: 'stopped',
          error: '',
        },
      },
    });
    expect(controlsOf(streamer).at(-1)?.message).toMatchObject({
      action: BotControlAction.STOP,
      broadcasterUserId: streamer.broadcasterId,
      requestId: 'req-stop-1',
    });
    expect(lastStatusOf(streamer)).toMatchObject({ isRunning: false, status: BotConnectionStatus.DISCONNECTED });
  });

  test('when the bot is not running, then 200 and nothing is published', async () => {
    const streamer = await aLinkedStreamer();

    const answer = await streamer.post('/api/platform/bot/stop');

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, message: 'Bot is not running', data: { isRunning: false } });
    expect(controlsOf(streamer)).toEqual([]);
  });
});

describe('admin: POST /api/admin/users/:id/bot/enable and /disable', () => {
  test('when a streamer (USER) calls them, then 403; without a token, 401', async () => {
    const streamer = await aLinkedStreamer();

    const asUser = await streamer.post(`/api/admin/users/${streamer.id}/bot/disable`);
    const anonymous = await callerWith(h, undefined).post(`/api/admin/users/${streamer.id}/bot/enable`);

    expect(asUser).toEqual({ status: 403, body: { success: false, error: 'Administrator access required' } });
    expect(anonymous.status).toBe(401);
    expect((await storedBot(streamer.id))?.botEnabled).toBe(true);
  });

  test('when the user is unknown, then 404 "User not found"', async () => {
    const answer = await anAdmin().post(`/api/admin/users/u-${randomUUID()}/bot/disable`);

    expect(answer).toEqual({ status: 404, body: { success: false, error: 'User not found' } });
  });

  test('when the user has no linked Kick account, then enabling answers 400', async () => {
    const streamer = aStreamer();
    await publishUserChanged(streamer, UserChangeKind.CREATED);
    await eventually(async () => expect(await storedBot(streamer.id)).toMatchObject({ seen: true }));

    const answer = await anAdmin().post(`/api/admin/users/${streamer.id}/bot/enable`);

    expect(answer).toEqual({ status: 400, body: { success: false, error: 'This user has no linked Kick account' } });
  });

  test('when the admin disables a running bot, then it stops, bot.status says disabled and the action is audited', async () => {
    const streamer = await aRunningStreamer();
    const admin = anAdmin();

    const answer = await admin.post(`/api/admin/users/${streamer.id}/bot/disable`);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      message: 'Bot disabled successfully',
      data: { userId: streamer.id, botEnabled: false, isRunning: false },
    });
    expect(controlsOf(streamer).map(({ message }) => message.action)).toEqual([
      BotControlAction.START,
      BotControlAction.STOP,
    ]);
    expect(lastStatusOf(streamer)).toMatchObject({ isRunning: false, botEnabled: false });
    const audits = h.recorded.publishedWithKeys('audit.recorded').filter(({ key }) => key === streamer.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.message).toMatchObject({
      actorUserId: admin.id,
      actorUsername: admin.username,
      action: 'bot.disabled',
      targetType: 'user',
      targetId: streamer.id,
      targetUsername: streamer.username,
      details: { kickUsername: streamer.kickUsername },
    });
    expect(audits[0]?.message.eventId).not.toBe('');
  });

  test('when the admin enables a disabled bot, then "Bot enabled successfully", it is audited and the streamer can start it', async () => {
    const streamer = await aLinkedStreamer();
    const admin = anAdmin();
    await admin.post(`/api/admin/users/${streamer.id}/bot/disable`);

    const answer = await admin.post(`/api/admin/users/${streamer.id}/bot/enable`);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ message: 'Bot enabled successfully', data: { botEnabled: true } });
    expect(lastStatusOf(streamer)).toMatchObject({ botEnabled: true, isRunning: false });
    const actions = h.recorded
      .published('audit.recorded')
      .filter((message) => message.targetId === streamer.id)
      .map((message) => message.action);
    expect(actions).toEqual(['bot.disabled', 'bot.enabled']);
    expect((await streamer.post('/api/platform/bot/start')).body.message).toBe('Bot started');
  });

  test('when the bot is already enabled, then 200 with the message and nothing is audited', async () => {
    const streamer = await aLinkedStreamer();

    const answer = await anAdmin().post(`/api/admin/users/${streamer.id}/bot/enable`);

    expect(answer.body).toMatchObject({ success: true, message: 'Bot enabled successfully' });
    expect(h.recorded.published('audit.recorded').filter((message) => message.targetId === streamer.id)).toEqual([]);
  });
});

describe('kick.account and user.changed', () => {
  test('when the Kick account needs a relink, then the bot stops and bot.status ERROR tells the streamer to link again', async () => {
    const streamer = await aRunningStreamer();

    await publishKickAccount(streamer, KickAccountChangeKind.NEEDS_RELINK);

    const relink = 'Your Kick account needs to be linked again. Open the Kick Account tab to link it.';
    await eventually(() =>
      expect(lastStatusOf(streamer)).toMatchObject({
        isRunning: false,
        isConnected: false,
        status: BotConnectionStatus.ERROR,
        error: relink,
      }),
    );
    expect(controlsOf(streamer).at(-1)?.message.action).toBe(BotControlAction.STOP);
    expect(await streamer.post('/api/platform/bot/start')).toEqual({
      status: 400,
      body: { success: false, error: relink },
    });
  });

  test('when the account is linked again after a relink, then the error is gone and the bot can start', async () => {
    const streamer = await aRunningStreamer();
    await publishKickAccount(streamer, KickAccountChangeKind.NEEDS_RELINK);
    await eventually(() => expect(lastStatusOf(streamer)?.status).toBe(BotConnectionStatus.ERROR));

    await publishKickAccount(streamer, KickAccountChangeKind.LINKED);

    await eventually(() =>
      expect(lastStatusOf(streamer)).toMatchObject({ status: BotConnectionStatus.DISCONNECTED, error: '' }),
    );
    expect((await streamer.post('/api/platform/bot/start')).body.message).toBe('Bot started');
  });

  test('when the Kick account is unlinked, then the bot stops and the channel is forgotten', async () => {
    const streamer = await aRunningStreamer();

    await publishKickAccount(streamer, KickAccountChangeKind.UNLINKED);

    await eventually(() => expect(lastStatusOf(streamer)).toMatchObject({ isRunning: false, broadcasterUserId: '0' }));
    expect(controlsOf(streamer).at(-1)?.message).toMatchObject({
      action: BotControlAction.STOP,
      broadcasterUserId: streamer.broadcasterId,
    });
    expect((await streamer.post('/api/platform/bot/start')).status).toBe(400);
  });

  test('when the user is deactivated, then a running bot stops', async () => {
    const streamer = await aRunningStreamer();

    await publishUserChanged(streamer, UserChangeKind.DEACTIVATED, false);

    await eventually(() => expect(lastStatusOf(streamer)?.isRunning).toBe(false));
    expect(controlsOf(streamer).map(({ message }) => message.action)).toEqual([
      BotControlAction.START,
      BotControlAction.STOP,
    ]);
    expect(controlsOf(streamer).at(-1)?.message.requestId).not.toBe('');
  });

  test('when a user whose bot was running is reactivated, then bot.control START goes out again and the bot runs', async () => {
    const streamer = await aRunningStreamer();
    await publishUserChanged(streamer, UserChangeKind.DEACTIVATED, false);
    await eventually(() => expect(lastStatusOf(streamer)?.isRunning).toBe(false));

    await publishUserChanged(streamer, UserChangeKind.ACTIVATED, true);

    await eventually(() => expect(lastStatusOf(streamer)?.isRunning).toBe(true));
    expect(controlsOf(streamer).map(({ message }) => message.action)).toEqual([
      BotControlAction.START,
      BotControlAction.STOP,
      BotControlAction.START,
    ]);
    expect(controlsOf(streamer).at(-1)?.message).toMatchObject({ broadcasterUserId: streamer.broadcasterId });
  });

  test('when the user is deleted, then a running bot stops', async () => {
    const streamer = await aRunningStreamer();

    await publishUserChanged(streamer, UserChangeKind.DELETED, false);

    await eventually(() => expect(lastStatusOf(streamer)?.isRunning).toBe(false));
  });
});

describe('command.changed', () => {
  test('when commands are added and removed, then the count follows in bot.status and in the status route', async () => {
    const streamer = await aLinkedStreamer();

    await publishCommandChanged(streamer, ChangeKind.ADDED, 'Hug', 'hugs {touser}');
    await eventually(() => expect(lastStatusOf(streamer)?.commandCount).toBe(2));
    await publishCommandChanged(streamer, ChangeKind.REMOVED, 'test', 'x');

    await eventually(() => expect(lastStatusOf(streamer)?.commandCount).toBe(1));
    expect((await streamer.get('/api/platform/bot/status')).body.data).toMatchObject({ commands: 1 });
  });

  test('when the same ADDED arrives twice, then it counts once and no second bot.status goes out', async () => {
    const streamer = await aLinkedStreamer();
    const statuses = statusesOf(streamer).length;

    await publishCommandChanged(streamer, ChangeKind.ADDED, 'again', 'one');
    await publishCommandChanged(streamer, ChangeKind.ADDED, 'again', 'one');
    await publishCommandChanged(streamer, ChangeKind.ADDED, 'sentinel', 'two');

    await eventually(() => expect(lastStatusOf(streamer)?.commandCount).toBe(3));
    expect(statusesOf(streamer)).toHaveLength(statuses + 2);
  });
});

describe('chat.received → command dispatch', () => {
  test("when a viewer's line is answered, then chat.send carries the line's own time (Kick's created_at), not only its receive time", async () => {
    const streamer = await aRunningStreamer();
    const createdAt = new Date(receivedAt.getTime() - 2_250);

    const messageId = await chat(streamer, '$test', { receivedAt, createdAt });

    const reply = await replyTo(streamer, messageId);
    expect(reply.message).toMatchObject({
      sourceReceivedAt: timestampFromDate(receivedAt),
      sourceSentAt: timestampFromDate(createdAt),
    });
  });

  test('when a viewer types $test, then exactly one chat.send replies to that line, then command.executed', async () => {
    const streamer = await aRunningStreamer();

    const messageId = await chat(streamer, '$test', { receivedAt });

    const reply = await replyTo(streamer, messageId);
    expect(reply.key).toBe(streamer.broadcasterId);
    expect(reply.message).toMatchObject({
      idempotencyKey: `reply:${messageId}`,
      broadcasterUserId: streamer.broadcasterId,
      ownerUserId: streamer.id,
      content: 'Hello! This is a test command. The bot is working correctly!',
      replyToMessageId: messageId,
      replyToUsername: 'viewer_one',
      origin: ChatOrigin.COMMAND,
      sourceReceivedAt: timestampFromDate(receivedAt),
    });
    await eventually(() => expect(executedFor(streamer)).toHaveLength(1));
    expect(executedFor(streamer)[0]).toMatchObject({
      ownerUserId: streamer.id,
      broadcasterUserId: streamer.broadcasterId,
      command: 'test',
      invokedByUsername: 'viewer_one',
      invokedByUserId: '777',
      messageId,
      response: 'Hello! This is a test command. The bot is working correctly!',
      executedAt: timestampFromDate(h.clock.now()),
    });
    expect(h.recorded.publishedWithKeys('command.executed').at(-1)?.key).toBe(streamer.id);
    expect(sendsTo(streamer)).toHaveLength(1);
  });

  test('when a command is answered, then the webhook-to-reply latency and the running bots show in /metrics', async () => {
    const latencyCount = async () =>
      (await histogramTotals(processMetrics().registry, 'kickstand_command_latency_seconds')).count;
    const before = await latencyCount();
    const streamer = await aRunningStreamer();
    await replyTo(streamer, await chat(streamer, '$test'));
    expect(await latencyCount()).toBe(before + 1);
    const text = await processMetrics().registry.metrics();
    expect(text).toMatch(/kickstand_bots_running\{service="bot-runner"\} [1-9]/);
  });

  test('when a response has variables, then {user} {touser} {args} {channel} {count} and {random} are filled in and {count} grows', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'Hug', '{user} hugs {touser} in {channel} ({args}) #{count} {random:5-9}');

    const first = await chat(streamer, '$hug @friend tightly', { sender: 'alice' });
    const firstReply = await replyTo(streamer, first);
    h.clock.advance(1000);
    const second = await chat(streamer, '$HUG', { sender: 'bob' });
    const secondReply = await replyTo(streamer, second);

    expect(firstReply.message.content).toBe(`alice hugs friend in ${streamer.kickUsername} (@friend tightly) #1 5`);
    expect(secondReply.message.content).toBe(`bob hugs bob in ${streamer.kickUsername} () #2 5`);
    expect(executedFor(streamer).map((message) => message.command)).toEqual(['Hug', 'Hug']);
  });

  test('when the command is unknown, a built-in game command or the bot’s own line, then nothing is answered', async () => {
    const streamer = await aRunningStreamer();

    await chat(streamer, '$nope');
    await chat(streamer, '$hero axe');
    await chat(streamer, '$game raidboss 5');
    await chat(streamer, 'hello there');
    await chat(streamer, '$test', { isFromBot: true });
    const sentinel = await chat(streamer, '$test');

    await replyTo(streamer, sentinel);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([sentinel]);
    expect(executedFor(streamer)).toHaveLength(1);
  });

  test('when the custom command shadows a built-in name, then the games service answers it, not the bot', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'mmr', 'my own mmr');

    await chat(streamer, '$mmr');
    const sentinel = await chat(streamer, '$test');

    await replyTo(streamer, sentinel);
    expect(sendsTo(streamer)).toHaveLength(1);
  });

  test('when the bot is stopped, then its channel is not answered', async () => {
    const streamer = await aRunningStreamer();
    await streamer.post('/api/platform/bot/stop');
    const other = await aRunningStreamer();

    await chat(streamer, '$test');
    // same key, so it is handled after the line above
    const sentinel = await chat(other, '$test', { key: streamer.broadcasterId });

    await replyTo(other, sentinel);
    expect(sendsTo(streamer)).toEqual([]);
  });

  test('when a command is used again within 1 s, then it is ignored; from 1 s on it is answered again', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'other', 'other {count}');

    const first = await chat(streamer, '$test');
    await replyTo(streamer, first);
    h.clock.advance(999);
    const tooSoon = await chat(streamer, '$test');
    const sentinel = await chat(streamer, '$other');
    await replyTo(streamer, sentinel);
    h.clock.advance(1);
    const afterCooldown = await chat(streamer, '$test');
    await replyTo(streamer, afterCooldown);

    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([first, sentinel, afterCooldown]);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).not.toContain(tooSoon);
  });

  test('when 5 commands typed 2 s apart arrive together after an outage, then all 5 are answered', async () => {
    const streamer = await aRunningStreamer();
    const typedAt = h.clock.now().getTime();
    h.clock.advance(60_000); // the outage: all five are processed at the same moment, a minute later
    const lines: string[] = [];
    for (let index = 0; index < 5; index++) {
      const sent = new Date(typedAt + index * 2000);
      lines.push(await chat(streamer, '$test', { createdAt: sent, receivedAt: new Date(sent.getTime() + 100) }));
    }

    await replyTo(streamer, lines[4] ?? '');
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual(lines);
  });

  test('when two arrive 0.5 s apart by created_at, then the second is refused even if processed 3 s apart', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'other', 'other {count}');
    const typedAt = h.clock.now().getTime();
    const first = await chat(streamer, '$test', {
      createdAt: new Date(typedAt),
      receivedAt: new Date(typedAt + 100),
    });
    await replyTo(streamer, first);
    h.clock.advance(3000);
    await chat(streamer, '$test', { createdAt: new Date(typedAt + 500), receivedAt: new Date(typedAt + 600) });
    const sentinel = await chat(streamer, '$other');

    await replyTo(streamer, sentinel);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([first, sentinel]);
  });

  test('when a created_at lies an hour ahead, then the line counts as sent on arrival and cannot block the command for an hour', async () => {
    const streamer = await aRunningStreamer();
    const arrival = h.clock.now().getTime();
    const ahead = await chat(streamer, '$test', {
      createdAt: new Date(arrival + 3_600_000),
      receivedAt: new Date(arrival),
    });
    await replyTo(streamer, ahead);
    h.clock.advance(1000);
    const next = await chat(streamer, '$test', { createdAt: new Date(arrival + 1000) });

    await replyTo(streamer, next);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([ahead, next]);
  });

  test('when a created_at lies an hour behind, then the line counts as sent 5 minutes before arrival: 0.5 s after it is still refused', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'other', 'other {count}');
    const arrival = h.clock.now().getTime();
    const behind = await chat(streamer, '$test', {
      createdAt: new Date(arrival - 3_600_000),
      receivedAt: new Date(arrival),
    });
    await replyTo(streamer, behind);
    h.clock.advance(500);
    // sent 0.5 s after the bounded time of the line above
    await chat(streamer, '$test', { createdAt: new Date(arrival - 300_000 + 500) });
    const sentinel = await chat(streamer, '$other');

    await replyTo(streamer, sentinel);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([behind, sentinel]);
  });

  test('when the same chat line is delivered twice, then it is answered once and {count} grows once', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'deaths', 'deaths: {count}');

    const messageId = await chat(streamer, '$deaths');
    await replyTo(streamer, messageId);
    h.clock.advance(1000);
    await chat(streamer, '$deaths', { messageId });
    const next = await chat(streamer, '$deaths');

    const nextReply = await replyTo(streamer, next);
    expect(nextReply.message.content).toBe('deaths: 2');
    expect(sendsTo(streamer).map(({ message }) => message.idempotencyKey)).toEqual([
      `reply:${messageId}`,
      `reply:${next}`,
    ]);
  });

  test('when commands are added and removed, then dispatch follows; a removed command is not answered', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'Discord', 'join us');

    const added = await chat(streamer, '$discord');
    expect((await replyTo(streamer, added)).message.content).toBe('join us');
    await publishCommandChanged(streamer, ChangeKind.REMOVED, 'Discord', 'join us');
    await eventually(() => expect(lastStatusOf(streamer)?.commandCount).toBe(1));
    h.clock.advance(1000);
    await chat(streamer, '$discord');
    const sentinel = await chat(streamer, '$test');

    await replyTo(streamer, sentinel);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([added, sentinel]);
  });

  test('when a removed command is added again, then its {count} starts from 1', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'wins', 'wins: {count}');
    await replyTo(streamer, await chat(streamer, '$wins'));
    await publishCommandChanged(streamer, ChangeKind.REMOVED, 'wins', '');
    await eventually(() => expect(lastStatusOf(streamer)?.commandCount).toBe(1));

    await addCommand(streamer, 'wins', 'wins again: {count}');
    h.clock.advance(1000);
    const reply = await replyTo(streamer, await chat(streamer, '$wins'));

    expect(reply.message.content).toBe('wins again: 1');
  });
});

describe('restarts and failures', () => {
  test('when the service restarts, then a running bot is still running and answers from the reloaded read model', async () => {
    const harness = await startHarness();
    try {
      const streamer = await aRunningStreamer(harness);
      await addCommand(streamer, 'uptime', 'still here #{count}', harness);
      await replyTo(streamer, await chat(streamer, '$uptime', { harness }), harness);

      await harness.restart();

      expect((await streamer.get('/api/platform/bot/status')).body.data).toMatchObject({
        isRunning: true,
        commands: 2,
      });
      harness.clock.advance(1000);
      const after = await chat(streamer, '$uptime', { harness });
      expect((await replyTo(streamer, after, harness)).message.content).toBe('still here #2');
    } finally {
      await harness.close();
    }
  });

  test('when a bot is started through one instance, then another instance that handles its channel answers it', async () => {
    const harness = await startHarness();
    const second = await harness.startAnotherInstance();
    try {
      const streamer = await aLinkedStreamer(harness);

      expect((await streamer.post('/api/platform/bot/start')).status).toBe(200);
      // the first instance leaves: the second handles every channel, with what it learnt from bot.status
      await harness.running.stop();

      await eventually(async () => {
        harness.clock.advance(1000);
        const messageId = await chat(streamer, '$test', { harness });
        await eventually(
          () => expect(sendsTo(streamer, harness).map(({ message }) => message.replyToMessageId)).toContain(messageId),
          300,
        );
      });
      expect(sendsTo(streamer, harness)).toHaveLength(1);
    } finally {
      await second.stop();
      await harness.platform.close();
    }
  });

  test('when a chat line is handled again after a restart, then the reply has the same idempotency key (kick-link keeps one)', async () => {
    const harness = await startHarness();
    try {
      const streamer = await aRunningStreamer(harness);
      const messageId = await chat(streamer, '$test', { harness });
      await replyTo(streamer, messageId, harness);

      await harness.restart();
      await chat(streamer, '$test', { messageId, harness });

      await eventually(() => expect(sendsTo(streamer, harness)).toHaveLength(2));
      expect(sendsTo(streamer, harness).map(({ message }) => message.idempotencyKey)).toEqual([
        `reply:${messageId}`,
        `reply:${messageId}`,
      ]);
    } finally {
      await harness.close();
    }
  });

  test('when publishing command.executed fails once, then the retry neither counts nor sends the line again', async () => {
    let failuresLeft = 1;
    const harness = await startHarness({}, (bus) => ({
      ...bus,
      publish: async (topic, key, message) => {
        if (topic === 'command.executed' && failuresLeft > 0) {
          failuresLeft--;
          throw new Error('the bus hiccuped');
        }
        await bus.publish(topic, key, message);
      },
    }));
    try {
      const streamer = await aRunningStreamer(harness);
      await addCommand(streamer, 'deaths', 'deaths: {count}', harness);

      const messageId = await chat(streamer, '$deaths', { harness });
      await eventually(() => expect(executedFor(streamer, harness)).toHaveLength(1));
      harness.clock.advance(1000);
      const next = await chat(streamer, '$deaths', { harness });

      expect((await replyTo(streamer, next, harness)).message.content).toBe('deaths: 2');
      expect(sendsTo(streamer, harness).map(({ message }) => message.replyToMessageId)).toEqual([messageId, next]);
      expect(failuresLeft).toBe(0);
    } finally {
      await harness.close();
    }
  });

  test('when the bus refuses bot.control, then start still succeeds and the outbox sends it later', async () => {
    let isRefusing = true;
    const harness = await startHarness({ outboxRetryMs: 50 }, (bus) => ({
      ...bus,
      publish: async (topic, key, message) => {
        if (topic === 'bot.control' && isRefusing) throw new Error('the bus is down');
        await bus.publish(topic, key, message);
      },
    }));
    try {
      const streamer = await aLinkedStreamer(harness);

      const answer = await streamer.post('/api/platform/bot/start');
      expect(answer.body.message).toBe('Bot started');
      expect(controlsOf(streamer, harness)).toEqual([]);
      isRefusing = false;

      await eventually(() => expect(controlsOf(streamer, harness)).toHaveLength(1));
      await eventually(() => expect(lastStatusOf(streamer, harness)?.isRunning).toBe(true));
      await eventually(async () => expect((await storedBot(streamer.id, harness))?.outbox).toEqual([]));
    } finally {
      await harness.close();
    }
  });
});

describe('command settings (command.changed UPDATED, the sender’s badges)', () => {
  test('when a command is renamed with an alias, then the new name and the alias answer, the old name does not, and {count} goes on', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'disc', 'discord #{count}');
    await replyTo(streamer, await chat(streamer, '$disc'));

    await publishCommandUpdated(streamer, 'disc', 'Discord', 'discord #{count}', { aliases: ['dc'] });
    await settled(streamer, 'Discord', { aliases: ['dc'] });
    h.clock.advance(1000);
    const old = await chat(streamer, '$disc');
    const byAlias = await chat(streamer, '$DC');
    h.clock.advance(1000);
    const byName = await chat(streamer, '$discord');

    expect((await replyTo(streamer, byAlias)).message.content).toBe('discord #2');
    expect((await replyTo(streamer, byName)).message.content).toBe('discord #3');
    expect(sendsTo(streamer).some(({ message }) => message.replyToMessageId === old)).toBe(false);
    expect(executedFor(streamer).at(-1)?.command).toBe('Discord');
  });

  test('when a command is disabled, then it is not answered; enabled again, it is', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'ping', 'pong');
    await publishCommandUpdated(streamer, 'test', 'test', 'hi', { enabled: false });
    await settled(streamer, 'test', { enabled: false });

    await chat(streamer, '$test');
    // the lines of a channel are handled in order: once this one is answered, the one before was handled
    const sentinel = await chat(streamer, '$ping');
    await replyTo(streamer, sentinel);
    await publishCommandUpdated(streamer, 'test', 'test', 'hi');
    await settled(streamer, 'test');
    const enabled = await chat(streamer, '$test');

    await replyTo(streamer, enabled);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([sentinel, enabled]);
  });

  test('when a command is for moderators, then a subscriber gets no reply and a moderator does', async () => {
    const streamer = await aRunningStreamer();
    await publishCommandUpdated(streamer, 'test', 'test', 'mods only', { permission: 'moderators' });
    await settled(streamer, 'test', { permission: 'moderators' });

    const subscriber = await chat(streamer, '$test', { badges: ['subscriber'], senderUserId: '1' });
    const moderator = await chat(streamer, '$test', { badges: ['moderator'], senderUserId: '2' });

    await replyTo(streamer, moderator);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([moderator]);
    expect(subscriber).not.toBe(moderator);
  });

  test('when a per-viewer cooldown of 60 s holds, then it holds for one viewer and not another', async () => {
    const streamer = await aRunningStreamer();
    await publishCommandUpdated(streamer, 'test', 'test', 'hi', { globalCooldownSeconds: 0, userCooldownSeconds: 60 });
    await settled(streamer, 'test', { globalCooldownSeconds: 0, userCooldownSeconds: 60 });

    const first = await chat(streamer, '$test', { senderUserId: '1' });
    await replyTo(streamer, first);
    h.clock.advance(30_000);
    const againTooSoon = await chat(streamer, '$test', { senderUserId: '1' });
    const otherViewer = await chat(streamer, '$test', { senderUserId: '2' });
    await replyTo(streamer, otherViewer);
    h.clock.advance(30_000);
    const againLater = await chat(streamer, '$test', { senderUserId: '1' });
    await replyTo(streamer, againLater);

    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([first, otherViewer, againLater]);
    expect(againTooSoon).not.toBe(first);
  });

  test('when an event from before settings (no settings field) adds a command, then it answers everyone with the 1 s cooldown', async () => {
    const streamer = await aRunningStreamer();
    await addCommand(streamer, 'old', 'old style');

    const first = await chat(streamer, '$old', { badges: [] });
    const tooSoon = await chat(streamer, '$old', { badges: [], senderUserId: '2' });
    h.clock.advance(1000);
    const later = await chat(streamer, '$old', { badges: [] });

    await replyTo(streamer, later);
    expect(sendsTo(streamer).map(({ message }) => message.replyToMessageId)).toEqual([first, later]);
    expect(tooSoon).not.toBe(first);
  });
});
