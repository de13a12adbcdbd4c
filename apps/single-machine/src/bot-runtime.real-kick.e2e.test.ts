import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@kickstand/platform/config';
import { createSilentLogger } from '@kickstand/platform/log';
import { cookieHeaderFrom, eventually } from '@kickstand/platform/testing';
import { singleMachineConfigSchema } from './config';
import { startSingleMachine, type SingleMachine } from './single-machine';

/**
 * Issue 15's acceptance, in one process with the Kick sandbox behaving like real Kick: `type:
 * "bot"` refused with 500, payload drift (the preset), and a burst of 429s. A hundred `$` commands
 * get a hundred replies, each exactly once, the bot never answers its own lines (not even one that
 * starts with `$`), and the dashboard's sender route names who speaks: the streamer after the
 * fallback, then the platform's bot account once an admin links it. Everything goes through the
 * gateway, with the product's own retry policy (backoff 1 s doubling, per-channel queue of 20).
 */

interface SandboxChatLine {
  seq: number;
  messageId: string;
  senderUsername: string;
  content: string;
  type: 'user' | 'bot' | 'viewer';
  replyToMessageId: string | null;
}

interface SandboxCall {
  status: number;
  body: { type?: string } | null;
  tokenUserId: number | null;
}

interface Envelope {
  success: boolean;
  data: never;
  error?: string;
}

const streamer = 'sandbox_streamer';
const streamerId = 4377088;
const botAccount = { username: 'sandbox_bot', id: 4377101 };
const viewers = ['viewer_alice', 'viewer_bob', 'viewer_carol'];
/** Commands take turns, so none comes again within its 1 s cooldown at the pace below. */
const plainCommands = Array.from({ length: 24 }, (_, n) => `c${n}`);
/** A command whose answer is itself a command: answering the bot's own line would loop. */
const loopCommand = { command: 'echo', response: '$echo once more, {user}' };
const commandNames = [...plainCommands, loopCommand.command];
const expectedReply = (command: string, viewer: string) =>
  command === loopCommand.command ? `$echo once more, ${viewer}` : `answer ${command} for ${viewer}`;
/** Between two viewer lines: 25 commands in turn come back every 2.5 s, well past the cooldown. */
const paceMs = 100;
/** Unanswered commands at most: while a 429 backs off, the channel's queue (20) never overflows. */
const maxUnanswered = 10;
const burstOf429 = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the bot against real Kick (the sandbox in real-Kick mode), end to end', () => {
  let kickstand: SingleMachine;
  let dataDir: string;
  let sandbox: string;
  let token: string;

  const api = async (method: string, url: string, body?: unknown, bearer = token) => {
    const response = await fetch(`${kickstand.url}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Envelope };
  };
  const control = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${sandbox}/sandbox/api${url}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Envelope;
    if (!response.ok) throw new Error(`sandbox ${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  /**
   * Starts a link at `startPath` as `bearer`, approves it at the sandbox as `kickUser` and comes back
   * to the callback with the cookie the start set, as the browser that started it would; answers
   * the callback's redirect.
   */
  const linkAs = async (startPath: string, bearer: string, kickUser: string) => {
    const started = await fetch(`${kickstand.url}${startPath}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}` },
    });
    const { data } = (await started.json()) as { data: { authUrl: string } };
    const cookie = cookieHeaderFrom(started);
    const authorize = await fetch(`${data.authUrl}&sandbox_auto_approve=${kickUser}`, { redirect: 'manual' });
    const callback = await fetch(authorize.headers.get('location') ?? '', { redirect: 'manual', headers: { cookie } });
    return callback.headers.get('location');
  };

  let chatSeq = 0;
  let callSeq = 0;
  /** Everything posted through POST /chat since the run began (the viewers' lines left out). */
  const posted: SandboxChatLine[] = [];
  const collectPosted = async (waitMs: number) => {
    const lines = (await control(
      'GET',
      `/chat?broadcasterUserId=${streamerId}&afterSeq=${chatSeq}&waitMs=${waitMs}`,
    )) as SandboxChatLine[];
    for (const line of lines) {
      chatSeq = Math.max(chatSeq, line.seq);
      if (line.type !== 'viewer') posted.push(line);
    }
  };
  const chatCallsSinceLastRun = async () => {
    const calls = (await control('GET', `/calls?endpoint=chat&afterSeq=${callSeq}&limit=1000`)) as (SandboxCall & {
      seq: number;
    })[];
    for (const call of calls) callSeq = Math.max(callSeq, call.seq);
    return calls;
  };

  /**
   * Viewers type `count` commands at a steady pace, never more than `maxUnanswered` ahead of the
   * replies; then waits for the last replies and a little longer, for any line too many. Answers
   * what each command expects by its Kick message id, and the lines the bot posted meanwhile.
   */
  async function runCommands(count: number) {
    posted.length = 0;
    await collectPosted(0);
    posted.length = 0;
    const expected = new Map<string, string>();
    const answered = () => new Set(posted.map((line) => line.replyToMessageId)).size;
    const deadline = Date.now() + 45_000;
    for (let i = 0; i < count; i++) {
      while (expected.size - answered() >= maxUnanswered && Date.now() < deadline) await collectPosted(1000);
      const command = commandNames[i % commandNames.length] ?? 'c0';
      const viewer = viewers[i % viewers.length] ?? 'viewer_alice';
      const { message } = (await control('POST', '/events/chat', {
        broadcaster: streamer,
        sender: viewer,
        content: `$${command}`,
      })) as { message: { messageId: string } };
      expected.set(message.messageId, expectedReply(command, viewer));
      await sleep(paceMs);
    }
    while (answered() < count && Date.now() < deadline) await collectPosted(1000);
    // a loop or a double post would show up now
    const settleUntil = Date.now() + 3000;
    while (Date.now() < settleUntil) await collectPosted(500);
    return { expected, lines: [...posted] };
  }

  /** Each command has exactly one reply, with its content, and nothing else was posted. */
  function expectOneReplyEach(expected: Map<string, string>, lines: SandboxChatLine[]) {
    const replies = new Map<string, string[]>();
    for (const line of lines) {
      const key = line.replyToMessageId ?? `(no reply target) ${line.content}`;
      replies.set(key, [...(replies.get(key) ?? []), line.content]);
    }
    expect(Object.fromEntries(replies)).toEqual(
      Object.fromEntries([...expected].map(([messageId, content]) => [messageId, [content]])),
    );
    expect(lines).toHaveLength(expected.size);
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-real-kick-'));
    const config = loadConfig(singleMachineConfigSchema, {
      PORT: '0',
      AUTH_PORT: '0',
      COMMANDS_PORT: '0',
      KICK_LINK_PORT: '0',
      BOT_RUNNER_PORT: '0',
      GAMES_PORT: '0',
      REALTIME_PORT: '0',
      KICK_SANDBOX_PORT: '0',
      KICK_SANDBOX_REAL_KICK: '1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'web'),
    });
    kickstand = await startSingleMachine(config, createSilentLogger());
    sandbox = `http://localhost:${kickstand.ports['kick-sandbox']}`;

    const registered = await fetch(`${kickstand.url}/api/platform/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'streamer@example.com', username: 'the_streamer', password: 'Str3am!ng' }),
    });
    token = ((await registered.json()) as { data: { token: string } }).data.token;

    expect(await linkAs('/api/platform/kick/link', token, streamer)).toBe('/dashboard?kick_linked=true');

    for (const command of plainCommands) {
      expect((await api('POST', '/api/commands', { command, response: `answer ${command} for {user}` })).status).toBe(
        201,
      );
    }
    expect((await api('POST', '/api/commands', loopCommand)).status).toBe(201);

    expect((await api('POST', '/api/platform/bot/start')).status).toBe(200);
    await eventually(async () => {
      expect((await api('GET', '/api/platform/bot/status')).body.data).toMatchObject({
        isRunning: true,
        isConnected: true,
        commands: 1 + commandNames.length,
      });
    }, 10_000);
    // the run started with KICK_SANDBOX_REAL_KICK=1: the preset is on
    expect(await control('GET', '/real-kick')).toMatchObject({ botChat: 'server-error', driftNullIdentity: 0.1 });
  }, 60_000);

  afterAll(async () => {
    await kickstand?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('when Kick refuses type "bot", drifts its payloads and answers 429 for a while, then 100 commands get 100 replies, once each, from the streamer, and none loops', async () => {
    await control('PATCH', '/real-kick', { chatRateLimitNext: burstOf429 });
    await chatCallsSinceLastRun();

    const { expected, lines } = await runCommands(100);

    expectOneReplyEach(expected, lines);
    for (const line of lines) expect(line).toMatchObject({ type: 'user', senderUsername: streamer });
    // the bot's "$echo once more" lines came back as chat and were not answered
    expect(lines.filter((line) => line.content.startsWith('$echo'))).toHaveLength(4);

    // Kick's answers were those of real Kick: the burst of 429s, one refusal of "bot", then "user"
    const calls = await chatCallsSinceLastRun();
    const summary = calls.map((call) => `${call.body?.type} ${call.status}`);
    expect(summary.slice(0, burstOf429 + 1)).toEqual([
      ...Array.from({ length: burstOf429 }, () => 'bot 429'),
      'bot 500',
    ]);
    expect(summary.slice(burstOf429 + 1)).toEqual(Array.from({ length: 100 }, () => 'user 200'));
    // and the deliveries drifted
    const deliveries = (await control(
      'GET',
      `/deliveries?broadcasterUserId=${streamerId}&eventType=chat.message.sent&limit=1000`,
    )) as { faults: string[]; state: string }[];
    expect(deliveries.filter((d) => d.faults.includes('drift:nullIdentity')).length).toBeGreaterThan(0);
    expect(deliveries.filter((d) => d.faults.includes('drift:nullObjects')).length).toBeGreaterThan(0);
    // drifted or not, Kickstand answered every one with 2xx (a refusal would make Kick drop the subscription)
    expect(deliveries.filter((d) => d.state !== 'delivered')).toEqual([]);

    const sender = await api('GET', '/api/platform/kick/chat-sender');
    expect(sender.body.data).toMatchObject({
      kind: 'streamer-user',
      kickUsername: streamer,
      isFallback: true,
      botRefusal: 'Internal server error',
      lastError: '',
      botAccountUsername: null,
    });

    await eventually(async () => {
      const { body } = await api('GET', '/api/platform/kick/delivery-health');
      const health = (body.data as { health: { deliveries: { accepted: number }; replies: unknown } }).health;
      expect(health.replies).toMatchObject({ 'streamer-user': { sent: 100, failed: 0, dropped: 0 } });
      expect(health.deliveries.accepted).toBeGreaterThanOrEqual(200);
    }, 10_000);
  }, 90_000);

  test('when an admin links the platform bot account, then under the same conditions the replies come from it as type "user", once each', async () => {
    const credentials = await readFile(path.join(dataDir, 'admin-credentials.txt'), 'utf8');
    const login = await fetch(`${kickstand.url}/api/platform/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: /email:\s*(\S+)/i.exec(credentials)?.[1],
        password: /password:\s*(\S+)/i.exec(credentials)?.[1],
      }),
    });
    const adminToken = ((await login.json()) as { data: { token: string } }).data.token;
    expect(await linkAs('/api/admin/bot-account/link', adminToken, botAccount.username)).toBe(
      '/admin/webhooks?bot_linked=true',
    );
    expect((await api('GET', '/api/admin/bot-account', undefined, adminToken)).body.data).toMatchObject({
      botAccount: { kickUserId: String(botAccount.id), kickUsername: botAccount.username, needsRelink: false },
    });
    expect((await api('GET', '/api/platform/kick/chat-sender')).body.data).toMatchObject({
      kind: 'bot-account',
      kickUsername: botAccount.username,
      isFallback: false,
      botAccountUsername: botAccount.username,
    });

    await control('POST', '/real-kick/preset');
    await control('PATCH', '/real-kick', { chatRateLimitNext: burstOf429 });
    await chatCallsSinceLastRun();

    const { expected, lines } = await runCommands(50);

    expectOneReplyEach(expected, lines);
    for (const line of lines) expect(line).toMatchObject({ type: 'user', senderUsername: botAccount.username });
    expect(lines.filter((line) => line.content.startsWith('$echo'))).toHaveLength(2);
    const calls = await chatCallsSinceLastRun();
    expect(calls.map((call) => `${call.body?.type} ${call.tokenUserId} ${call.status}`)).toEqual([
      ...Array.from({ length: burstOf429 }, () => `user ${botAccount.id} 429`),
      ...Array.from({ length: 50 }, () => `user ${botAccount.id} 200`),
    ]);

    expect((await api('GET', '/api/platform/kick/chat-sender')).body.data).toMatchObject({
      kind: 'bot-account',
      kickUsername: botAccount.username,
      lastError: '',
    });
  }, 90_000);
});
