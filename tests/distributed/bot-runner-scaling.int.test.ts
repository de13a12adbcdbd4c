import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kafkaGroupId } from '@kickstand/platform/bus';
import { freePortBlock } from '@kickstand/platform/http';
import { mongoDriverOptions } from '@kickstand/platform/store';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { cookieHeaderFrom } from '@kickstand/platform/testing';

/**
 * Issue 9's proof: distributed mode (`scripts/start-distributed.js`: one process per part on Kafka
 * and MongoDB, with the Kick sandbox) keeps answering every chat command exactly once while
 * bot-runner scales out, scales in gracefully and loses an instance to a crash.
 *
 * - Runs only with KAFKA_BROKERS and MONGO_URL (`make test-integration` starts both); otherwise it
 *   skips with one line, or fails on CI with REQUIRE_INTEGRATION=1. It runs the compiled code
 *   (`dist/`, made by `npm test`'s type-check or `npx tsc -b`).
 * - Every run has its own topic prefix, database prefix, ports and DATA_DIR.
 * - Six streamers each link their own sandbox channel and start their bot while one bot-runner
 *   runs. The setup writes each streamer's bot document from several topics at once; it stays in
 *   one process as it did when the local engine was FerretDB, whose updates were not atomic across
 *   processes (SecantusDB's and MongoDB's single-document updates are).
 *   Then a second bot-runner joins, viewers type commands in every channel, a third joins (scale
 *   out), the second gets SIGTERM (graceful scale in), the third gets SIGKILL (crash; noticed after
 *   KAFKA_SESSION_TIMEOUT_MS), and at the end every viewer line must have exactly one bot reply at
 *   the sandbox (matched by reply_to_message_id), with the right text, within a bound.
 * - The spec's per-channel cooldown (1 s per command) would drop a command repeated too soon after
 *   a pause (a rebalance, the crash), so each channel cycles through 16 commands: one repeats only
 *   every 29 s.
 */

const root = path.resolve(__dirname, '../..');
const brokers = process.env.KAFKA_BROKERS ?? '';
const mongoUrl = process.env.MONGO_URL ?? '';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';
const skipLine = 'distributed bot-runner scaling skipped: set KAFKA_BROKERS and MONGO_URL (make test-integration)';

const streamerCount = 6;
const commandNames = ['test', ...Array.from({ length: 15 }, (_, i) => `c${i + 1}`)];
const viewers = ['viewer_alice', 'viewer_bob', 'viewer_carol'];
// One viewer line every 300 ms, round robin: each channel every 1.8 s. About 3.3 lines a second,
// well within what this stack answers on a 2-core machine (sized when the local engine was
// FerretDB, which managed about 5 a second).
const tickMs = 300;
const trafficMs = 60_000;
const scaleOutAtMs = 15_000;
const scaleInAtMs = 30_000;
const crashAtMs = 45_000;
const replyBoundMs = 30_000;
const testReply = 'Hello! This is a test command. The bot is working correctly!';
const tuning = {
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  KAFKA_HEARTBEAT_INTERVAL_MS: '500',
  KAFKA_REBALANCE_TIMEOUT_MS: '10000',
};

interface Envelope<T> {
  success: boolean;
  data: T;
  error?: string;
  message?: string;
}

interface ChatLine {
  seq: number;
  messageId: string;
  broadcasterUserId: number;
  senderUsername: string;
  content: string;
  replyToMessageId: string | null;
  createdAt: string;
}

interface Sent {
  messageId: string;
  channel: string;
  command: string;
  sender: string;
  phase: string;
  createdAtMs: number;
}

interface Running {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(what: string, timeoutMs: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const result = await attempt();
      if (result !== undefined) return result;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
    await delay(200);
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

if (!brokers || !mongoUrl) {
  if (isRequired) {
    test('Kafka and MongoDB are available (CI=true and REQUIRE_INTEGRATION=1)', () => {
      throw new Error('the distributed scaling test cannot run: set KAFKA_BROKERS and MONGO_URL');
    });
  } else {
    process.stdout.write(`${skipLine}\n`);
    test.skip(skipLine, () => undefined);
  }
} else {
  describe('distributed mode: bot-runner scales out and in without losing or repeating a reply', () => {
    const runId = `kdist${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kickstand-distributed-'));
    const logPath = path.join(dataDir, 'processes.log');
    let log: WriteStream;
    const recent: string[] = [];
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    let basePort = 0;
    let sandboxPort = 0;
    let gateway = '';
    let sandbox = '';
    let system: Running | undefined;
    /** pid → label of every process start-distributed reported */
    const pids = new Map<number, string>();
    const extraBotRunners: Running[] = [];
    const streamers: { name: string; token: string }[] = [];
    /** How many members one bot-runner has in the shared group (one per topic it reads with it). */
    let membersOfOneInstance = 0;
    /** The Kafka group of the bot-runners' chat readers (one member per instance). */
    const chatReaders = `${runId}.${kafkaGroupId('bot-runner', 'chat.received')}`;

    async function botRunnerGroupMembers(): Promise<number> {
      const admin = new Kafka({
        clientId: 'distributed-test',
        brokers: brokers.split(','),
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect();
      try {
        return (await admin.describeGroups([chatReaders])).groups[0]?.members.length ?? 0;
      } finally {
        await admin.disconnect();
      }
    }

    const commonEnv = (): NodeJS.ProcessEnv => ({
      ...process.env,
      KAFKA_BROKERS: brokers,
      MONGO_URL: mongoUrl,
      KAFKA_TOPIC_PREFIX: `${runId}.`,
      MONGO_DB_PREFIX: `${runId}-`,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      LOG_LEVEL: process.env.DISTRIBUTED_LOG_LEVEL ?? 'warn',
      LOG_FORMAT: 'json',
      NODE_ENV: 'development',
      ...tuning,
    });

    function run(label: string, args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Running {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
      let buffered = '';
      const onData = (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          log.write(`[${label}] ${line}\n`);
          onLine?.(line);
          recent.push(`[${label}] ${line}`.slice(0, 400));
          if (recent.length > 60) recent.shift();
          for (const waiter of [...waiters]) {
            const match = waiter.pattern.exec(line);
            if (match) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(match);
            }
          }
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal, atMs: Date.now() })),
      );
      return {
        child,
        exited,
        waitFor: (pattern, timeoutMs) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`${label}: no line like ${pattern} within ${timeoutMs} ms`)),
              timeoutMs,
            );
            waiters.push({
              pattern,
              resolve: (match) => {
                clearTimeout(timer);
                resolve(match);
              },
            });
          }),
      };
    }

    async function call<T>(base: string, method: string, url: string, body?: unknown, token?: string) {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      const cookie = cookieHeaderFrom(response);
      return { status: response.status, body: (await response.json()) as Envelope<T>, cookie };
    }
    const control = <T>(method: string, url: string, body?: unknown) =>
      call<T>(sandbox, method, `/sandbox/api${url}`, body);

    async function botStatus(token: string) {
      const { body } = await call<{ isConnected: boolean; commands: number }>(
        gateway,
        'GET',
        '/api/platform/bot/status',
        undefined,
        token,
      );
      return body.data;
    }

    /** A streamer: a sandbox channel of their own, sixteen commands, the channel linked, the bot started. */
    async function setUpStreamer(index: number): Promise<{ name: string; token: string }> {
      const name = `streamer_${index}`;
      expect((await control('POST', '/users', { username: name })).status).toBe(201);
      const registered = await call<{ token: string }>(gateway, 'POST', '/api/platform/register', {
        email: `${name}@example.com`,
        username: name,
        password: 'Str3am!ng',
      });
      expect(registered.status).toBe(201);
      const token = registered.body.data.token;
      await eventually(`${name}: the default command reaches bot-runner`, 20_000, async () =>
        (await botStatus(token)).commands === 1 ? true : undefined,
      );
      for (const command of commandNames.slice(1)) {
        const added = await call(
          gateway,
          'POST',
          '/api/commands',
          { command, response: `${command} #{count} for {user}` },
          token,
        );
        expect(added.status).toBe(201);
      }
      await eventually(`${name}: every command reaches bot-runner`, 20_000, async () =>
        (await botStatus(token)).commands === commandNames.length ? true : undefined,
      );
      const link = await call<{ authUrl: string }>(gateway, 'POST', '/api/platform/kick/link', undefined, token);
      const authorize = await fetch(`${link.body.data.authUrl}&sandbox_auto_approve=${name}`, { redirect: 'manual' });
      // the callback goes on only in the browser that started the link: it brings the start's cookie
      const callback = await fetch(authorize.headers.get('location') ?? '', {
        redirect: 'manual',
        headers: { cookie: link.cookie },
      });
      expect(callback.headers.get('location')).toBe('/dashboard?kick_linked=true');
      await eventually(`${name}: the bot starts`, 20_000, async () => {
        const started = await call(gateway, 'POST', '/api/platform/bot/start', undefined, token);
        return started.status === 200 ? true : undefined;
      });
      await eventually(`${name}: the bot is connected`, 20_000, async () =>
        (await botStatus(token)).isConnected ? true : undefined,
      );
      return { name, token };
    }

    function startBotRunner(instance: string, port: number): Running {
      return run(`bot-runner-${instance}`, [path.join(root, 'scripts/run-service.js'), 'bot-runner'], {
        ...commonEnv(),
        PORT: String(port),
        INSTANCE_ID: `bot-runner-${instance}`,
        JWT_PUBLIC_KEY: publicKey,
      });
    }

    /** Ready: /healthz answers as soon as it listens, /readyz once its consumers have joined their groups. */
    async function untilHealthy(port: number): Promise<void> {
      await eventually(`port ${port} answers /readyz`, 60_000, async () =>
        (await fetch(`http://127.0.0.1:${port}/readyz`)).ok ? true : undefined,
      );
    }

    /** This run's topics and databases, so that reruns on the same engines do not pile them up. */
    async function dropRunData(): Promise<void> {
      const admin = new Kafka({
        clientId: 'distributed-test',
        brokers: brokers.split(','),
        logLevel: logLevel.NOTHING,
      }).admin();
      const mongo = new MongoClient(mongoUrl, { ...mongoDriverOptions, serverSelectionTimeoutMS: 5000 });
      try {
        await admin.connect();
        const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${runId}.`));
        if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 });
        await mongo.connect();
        const { databases } = await mongo.db().admin().listDatabases({ nameOnly: true });
        for (const { name } of databases.filter((db) => db.name.startsWith(`${runId}-`)))
          await mongo.db(name).dropDatabase();
      } catch (error) {
        process.stdout.write(`distributed: could not drop this run's topics and databases: ${String(error)}\n`);
      } finally {
        await admin.disconnect().catch(() => undefined);
        await mongo.close().catch(() => undefined);
      }
    }

    function dumpRecent(): void {
      process.stdout.write(`--- last process lines (full log: ${logPath}) ---\n${recent.join('\n')}\n`);
    }

    beforeAll(async () => {
      const missing = [
        'services/bot-runner/dist/main.js',
        'gateway/dist/main.js',
        'tools/kick-sandbox/dist/main.js',
      ].filter((file) => !existsSync(path.join(root, file)));
      if (missing.length > 0) throw new Error(`not compiled: ${missing.join(', ')} (run \`npx tsc -b\` first)`);
      log = createWriteStream(logPath);
      // The gateway, services and extra bot-runners at +0…+12, the sandbox at +13.
      basePort = await freePortBlock(14);
      sandboxPort = basePort + 13;
      gateway = `http://localhost:${basePort}`;
      sandbox = `http://localhost:${sandboxPort}`;
      system = run(
        'start-distributed',
        [path.join(root, 'scripts/start-distributed.js'), '--no-build'],
        {
          ...commonEnv(),
          PORT: String(basePort),
          KICK_SANDBOX_PORT: String(sandboxPort),
          BOT_RUNNER_INSTANCES: '1',
          JWT_PRIVATE_KEY: privateKey,
          JWT_PUBLIC_KEY: publicKey,
        },
        (line) => {
          const match = /^start:distributed: (\S+) pid (\d+) port \d+$/.exec(line);
          if (match) pids.set(Number(match[2]), match[1] ?? '');
        },
      );
      const failed = system.exited.then(({ code, signal }) => {
        throw new Error(`start-distributed exited early (${signal ?? code})`);
      });
      try {
        await Promise.race([system.waitFor(/^start:distributed: ready$/, 120_000), failed]);
        const started = Date.now();
        streamers.push(...(await Promise.all(Array.from({ length: streamerCount }, (_, i) => setUpStreamer(i + 1)))));
        membersOfOneInstance = await botRunnerGroupMembers();
        process.stdout.write(
          `distributed: ${pids.size} processes up; ${streamerCount} streamers linked and started in ${Date.now() - started} ms\n`,
        );
      } catch (error) {
        dumpRecent();
        throw error;
      } finally {
        failed.catch(() => undefined);
      }
    }, 240_000);

    afterAll(async () => {
      for (const extra of extraBotRunners) if (extra.child.exitCode === null) extra.child.kill('SIGKILL');
      if (system && system.child.exitCode === null && system.child.pid) {
        try {
          process.kill(-system.child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await new Promise((resolve) => log?.end(resolve));
      if (process.env.KEEP_DISTRIBUTED_LOG !== '1') await dropRunData();
      if (process.env.KEEP_DISTRIBUTED_LOG === '1') process.stdout.write(`distributed: logs kept in ${logPath}\n`);
      else rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    test('every viewer command gets exactly one reply while bot-runner goes 1 → 2 → 3 → 2 (SIGTERM) → 1 (SIGKILL)', async () => {
      const sent: Sent[] = [];
      const replies = new Map<string, ChatLine[]>();
      const strays: ChatLine[] = [];
      let afterSeq = (await control<ChatLine[]>('GET', '/chat?type=bot&limit=1')).body.data.at(-1)?.seq ?? 0;
      const channelOf = new Map<number, string>();
      for (const { name } of streamers) {
        const user = await control<{ userId: number }>('GET', `/users/${name}`);
        channelOf.set(user.body.data.userId, name);
      }
      let isCollecting = true;
      const collecting = (async () => {
        while (isCollecting) {
          try {
            const { body } = await control<ChatLine[]>(
              'GET',
              `/chat?type=bot&afterSeq=${afterSeq}&limit=1000&waitMs=1000`,
            );
            for (const line of body.data) {
              afterSeq = Math.max(afterSeq, line.seq);
              if (!line.replyToMessageId) strays.push(line);
              else replies.set(line.replyToMessageId, [...(replies.get(line.replyToMessageId) ?? []), line]);
            }
          } catch (error) {
            // the sandbox did not answer this once: ask again (a lasting outage shows as missing replies)
            recent.push(`[test] reading the bot's lines failed: ${String(error)}`);
            await delay(500);
          }
        }
      })();

      // Arrange: a second bot-runner before the traffic starts (the first scale-out)
      const second = startBotRunner('b', basePort + 10);
      extraBotRunners.push(second);
      await untilHealthy(basePort + 10);
      await delay(2000);

      // Act: the viewers' lines, with the third bot-runner, the SIGTERM and the SIGKILL on the way
      const phases: { name: string; atMs: number; note: string }[] = [{ name: 'two', atMs: 0, note: 'a, b' }];
      let phase = 'two';
      let third: Running | undefined;
      let secondStop: { code: number | null; signal: NodeJS.Signals | null; ms: number } | undefined;
      const events = (async () => {
        await delay(scaleOutAtMs);
        phase = 'scale-out';
        phases.push({ name: phase, atMs: scaleOutAtMs, note: '+c: a, b, c' });
        third = startBotRunner('c', basePort + 11);
        extraBotRunners.push(third);
        await delay(scaleInAtMs - scaleOutAtMs);
        phase = 'scale-in';
        phases.push({ name: phase, atMs: scaleInAtMs, note: 'b SIGTERM: a, c' });
        const termAt = Date.now();
        second.child.kill('SIGTERM');
        const exit = await second.exited;
        secondStop = { code: exit.code, signal: exit.signal, ms: exit.atMs - termAt };
        await delay(Math.max(0, crashAtMs - scaleInAtMs - (Date.now() - termAt)));
        phase = 'crash';
        phases.push({ name: phase, atMs: crashAtMs, note: 'c SIGKILL: a' });
        third?.child.kill('SIGKILL');
      })();

      const started = Date.now();
      const sends: Promise<void>[] = [];
      const perChannel = new Map<string, number>();
      for (let n = 0; ; n++) {
        const due = started + n * tickMs;
        if (due - started >= trafficMs) break;
        await delay(Math.max(0, due - Date.now()));
        const channel = streamers[n % streamers.length]?.name ?? '';
        const m = perChannel.get(channel) ?? 0;
        perChannel.set(channel, m + 1);
        const command = commandNames[m % commandNames.length] ?? 'test';
        const sender = viewers[m % viewers.length] ?? 'viewer_alice';
        const atPhase = phase;
        sends.push(
          control<{ message: { messageId: string; createdAt: string } }>('POST', '/events/chat', {
            broadcaster: channel,
            sender,
            content: `$${command}`,
          }).then(({ status, body }) => {
            expect(status).toBe(201);
            sent.push({
              messageId: body.data.message.messageId,
              channel,
              command,
              sender,
              phase: atPhase,
              createdAtMs: Date.parse(body.data.message.createdAt),
            });
          }),
        );
      }
      await Promise.all(sends);
      await events;
      const lastSentAt = Date.now();
      // every line answered, then a quiet while for late duplicates
      await eventually('every line answered', replyBoundMs + 10_000, async () =>
        sent.every((message) => replies.has(message.messageId)) ? true : undefined,
      ).catch(() => undefined);
      await delay(3000);
      isCollecting = false;
      await collecting;
      const drainMs = Date.now() - lastSentAt;

      // Assert
      const missing = sent.filter((message) => !replies.has(message.messageId));
      const duplicated = sent.filter((message) => (replies.get(message.messageId)?.length ?? 0) > 1);
      const sentIds = new Set(sent.map((message) => message.messageId));
      const unknown = [...replies.keys()].filter((id) => !sentIds.has(id));
      const wrongText = sent.filter((message) => {
        const reply = replies.get(message.messageId)?.[0];
        if (!reply) return false;
        if (message.command === 'test') return reply.content !== testReply;
        return !new RegExp(`^${message.command} #\\d+ for ${message.sender}$`).test(reply.content);
      });
      const latencies = sent
        .filter((message) => replies.has(message.messageId))
        .map((message) => ({
          phase: message.phase,
          ms: Date.parse(replies.get(message.messageId)?.[0]?.createdAt ?? '') - message.createdAtMs,
        }));
      // {count} per channel and command: 1, 2, 3… in the order the lines were typed, unless a
      // crash made a new owner count a replayed line again (allowed: the reply is still sent once)
      const countSeries = new Map<string, number[]>();
      for (const message of [...sent].sort((a, b) => a.createdAtMs - b.createdAtMs)) {
        const count = /#(\d+) for/.exec(replies.get(message.messageId)?.[0]?.content ?? '')?.[1];
        if (count === undefined) continue;
        const key = `${message.channel}:${message.command}`;
        countSeries.set(key, [...(countSeries.get(key) ?? []), Number(count)]);
      }
      const countAnomalies = [...countSeries.values()].filter((series) =>
        series.some((count, i) => count !== i + 1),
      ).length;

      const row = (name: string, items: { ms: number }[]) => {
        const sorted = items.map((item) => item.ms).sort((a, b) => a - b);
        return `  ${name.padEnd(10)} replies ${String(sorted.length).padStart(4)}   p50 ${String(percentile(sorted, 50)).padStart(5)} ms   p95 ${String(percentile(sorted, 95)).padStart(5)} ms   max ${String(sorted.at(-1) ?? NaN).padStart(5)} ms`;
      };
      process.stdout.write(
        [
          '',
          `distributed bot-runner scaling proof (${streamerCount} channels, ${commandNames.length} commands each, one line every ${tickMs} ms for ${trafficMs / 1000} s)`,
          `  phases: ${phases.map((p) => `${p.atMs / 1000}s ${p.name} (${p.note})`).join(' → ')}`,
          `  graceful stop of b: ${secondStop ? `${secondStop.signal ?? `exit ${secondStop.code}`} after ${secondStop.ms} ms` : 'did not happen'}`,
          `  messages ${sent.length}   replies ${sent.length - missing.length}   duplicates ${duplicated.length}   missing ${missing.length}   wrong text ${wrongText.length}   replies to unknown lines ${unknown.length}   unprompted bot lines ${strays.length}`,
          `  {count} series with a gap or repeat (allowed after the crash): ${countAnomalies} of ${countSeries.size}`,
          row('all', latencies),
          ...['two', 'scale-out', 'scale-in', 'crash'].map((name) =>
            row(
              name,
              latencies.filter((l) => l.phase === name),
            ),
          ),
          `  last reply came ${drainMs - 3000} ms or less after the last line was typed`,
          '',
        ].join('\n'),
      );
      if (missing.length + duplicated.length + wrongText.length > 0) dumpRecent();

      expect(missing.map((message) => `${message.channel} $${message.command} (${message.phase})`)).toEqual([]);
      expect(duplicated.map((message) => `${message.channel} $${message.command} (${message.phase})`)).toEqual([]);
      expect(wrongText.map((message) => replies.get(message.messageId)?.[0]?.content)).toEqual([]);
      expect(unknown).toEqual([]);
      expect(strays).toEqual([]);
      expect(Math.max(...latencies.map((l) => l.ms))).toBeLessThan(replyBoundMs);
      expect(sent.length).toBe(trafficMs / tickMs);
      // the graceful stop: SIGTERM → exit 0 within 10 s
      expect(secondStop).toMatchObject({ code: 0 });
      expect(secondStop?.ms).toBeLessThan(10_000);
    }, 180_000);

    test('the topics were made with explicit partition counts (24 for chat.*, keyed by channel) and bot-runner shares one group', async () => {
      const admin = new Kafka({
        clientId: 'distributed-test',
        brokers: brokers.split(','),
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect();
      try {
        const names = ['chat.received', 'chat.send', 'chat.sent', 'bot.status', 'command.changed'];
        const { topics } = await admin.fetchTopicMetadata({ topics: names.map((name) => `${runId}.${name}`) });
        expect(
          Object.fromEntries(topics.map((topic) => [topic.name.slice(runId.length + 1), topic.partitions.length])),
        ).toEqual({
          'chat.received': 24,
          'chat.send': 24,
          'chat.sent': 24,
          'bot.status': 3,
          'command.changed': 3,
        });
        // what is left after the SIGTERM and the SIGKILL: the first instance's members, as at the start
        const [group] = (await admin.describeGroups([chatReaders])).groups;
        expect(group?.state).toBe('Stable');
        expect(group?.members.length).toBe(membersOfOneInstance);
      } finally {
        await admin.disconnect();
      }
    });

    test('when start-distributed gets SIGTERM, then every process it started exits within 12 s', async () => {
      expect(system?.child.exitCode).toBeNull();
      const startedAt = Date.now();
      system?.child.kill('SIGTERM');
      const exit = await system?.exited;
      const alive = [...pids.keys()].filter((pid) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      });
      process.stdout.write(
        `distributed: start-distributed and its ${pids.size} processes stopped in ${Date.now() - startedAt} ms\n`,
      );
      expect(exit?.code).toBe(0);
      expect(Date.now() - startedAt).toBeLessThan(12_500);
      expect(alive).toEqual([]);
    }, 30_000);
  });
}
