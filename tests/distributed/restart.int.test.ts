import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { instanceGroup, kafkaGroupId } from '@kickstand/platform/bus';
import { freePort } from '@kickstand/platform/http';
import { mongoDriverOptions } from '@kickstand/platform/store';

/**
 * Issue 16's restart in seconds, on a real Kafka and MongoDB, with the compiled bot-runner
 * (`node scripts/run-service.js bot-runner`, as a container runs it) and the default consumer
 * timings (session 10 s, heartbeat 1 s, rebalance 10 s):
 *
 * - SIGKILL, then a new process with the same INSTANCE_ID (what compose, k8s or start:distributed
 *   do): it serves HTTP (/healthz) within 10 s, although its dead predecessor still holds the
 *   consumer groups; /readyz says ready only once its own members are the group's members.
 * - SIGTERM: the process exits 0 and has left its groups (no members left, no session to wait for).
 *
 * Runs only with KAFKA_BROKERS and MONGO_URL (`make test-integration`), else skips with one line
 * (fails on CI with REQUIRE_INTEGRATION=1). Needs the compiled code (`npx tsc -b`).
 */

const root = path.resolve(__dirname, '../..');
const brokers = process.env.KAFKA_BROKERS ?? '';
const mongoUrl = process.env.MONGO_URL ?? '';
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';
const skipLine = 'distributed restart skipped: set KAFKA_BROKERS and MONGO_URL (make test-integration)';

interface Running {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: string[];
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from `since` until `probe` answers 200 (polled every 100 ms), or throws after `timeoutMs`. */
async function msUntilOk(url: string, since: number, timeoutMs: number): Promise<number> {
  const deadline = since + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return Date.now() - since;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url}: no 200 within ${timeoutMs} ms`);
    await delay(100);
  }
}

if (!brokers || !mongoUrl) {
  if (isRequired) {
    test('Kafka and MongoDB are available (CI=true and REQUIRE_INTEGRATION=1)', () => {
      throw new Error('the distributed restart test cannot run: set KAFKA_BROKERS and MONGO_URL');
    });
  } else {
    process.stdout.write(`${skipLine}\n`);
    test.skip(skipLine, () => undefined);
  }
} else {
  describe('a restarted service process on Kafka', () => {
    const runId = `restart-${randomBytes(4).toString('hex')}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kickstand-restart-'));
    const { publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    // bot-runner's Kafka groups: one per topic of its shared group, and its instance's bot.status reader
    const groups = [
      ...['user.changed', 'kick.account', 'command.changed', 'chat.subscription', 'chat.received'].map(
        (topic) => `${runId}.${kafkaGroupId('bot-runner', topic)}`,
      ),
      `${runId}.${kafkaGroupId(instanceGroup('bot-runner', 'bot-runner-1'), 'bot.status')}`,
    ];
    let port = 0;
    let admin: Admin;
    const processes: Running[] = [];

    function startBotRunner(): Running {
      const child = spawn(process.execPath, [path.join(root, 'scripts/run-service.js'), 'bot-runner'], {
        cwd: root,
        env: {
          ...process.env,
          KAFKA_BROKERS: brokers,
          MONGO_URL: mongoUrl,
          KAFKA_TOPIC_PREFIX: `${runId}.`,
          MONGO_DB_PREFIX: `${runId}-`,
          DATA_DIR: dataDir,
          PORT: String(port),
          INSTANCE_ID: 'bot-runner-1',
          JWT_PUBLIC_KEY: publicKey,
          LOG_LEVEL: 'warn',
          LOG_FORMAT: 'json',
          NODE_ENV: 'development',
          // the defaults are what is measured
          KAFKA_SESSION_TIMEOUT_MS: '',
          KAFKA_HEARTBEAT_INTERVAL_MS: '',
          KAFKA_REBALANCE_TIMEOUT_MS: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      const keep = (chunk: Buffer) => {
        output.push(chunk.toString('utf8'));
        if (output.length > 200) output.shift();
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const running = { child, exited, output };
      processes.push(running);
      return running;
    }

    /** groupId → the ids of its members now */
    async function members(): Promise<Map<string, string[]>> {
      const { groups: described } = await admin.describeGroups(groups);
      return new Map(described.map((group) => [group.groupId, group.members.map((member) => member.memberId).sort()]));
    }

    beforeAll(async () => {
      const missing = ['services/bot-runner/dist/main.js'].filter((file) => !existsSync(path.join(root, file)));
      if (missing.length > 0) throw new Error(`not compiled: ${missing.join(', ')} (run \`npx tsc -b\` first)`);
      port = await freePort();
      admin = new Kafka({ clientId: 'restart-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
    });

    afterAll(async () => {
      for (const { child } of processes)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      const mongo = new MongoClient(mongoUrl, { ...mongoDriverOptions, serverSelectionTimeoutMS: 5000 });
      try {
        const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${runId}.`));
        if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 });
        await mongo.connect();
        const { databases } = await mongo.db().admin().listDatabases({ nameOnly: true });
        for (const { name } of databases.filter((db) => db.name.startsWith(`${runId}-`)))
          await mongo.db(name).dropDatabase();
      } catch (error) {
        process.stdout.write(`restart: could not drop this run's topics and databases: ${String(error)}\n`);
      } finally {
        await admin.disconnect().catch(() => undefined);
        await mongo.close().catch(() => undefined);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 30_000);

    test('when SIGKILLed and started again, then it serves HTTP within 10 s and is ready once its consumers own the groups', async () => {
      const first = startBotRunner();
      await msUntilOk(`http://127.0.0.1:${port}/readyz`, Date.now(), 60_000);
      const before = await members();
      expect([...before.values()].every((ids) => ids.length > 0)).toBe(true);

      first.child.kill('SIGKILL');
      await first.exited;
      const killedAt = Date.now();
      const second = startBotRunner();
      const healthyMs = await msUntilOk(`http://127.0.0.1:${port}/healthz`, killedAt, 10_000);
      const readyMs = await msUntilOk(`http://127.0.0.1:${port}/readyz`, killedAt, 30_000);
      const after = await members();
      process.stdout.write(`restart: after SIGKILL, /healthz 200 in ${healthyMs} ms, /readyz 200 in ${readyMs} ms\n`);

      expect(healthyMs).toBeLessThan(10_000);
      // ready means joined: every group has as many members as before, none of them the dead ones
      for (const group of groups) {
        const now = after.get(group) ?? [];
        expect(now).toHaveLength(before.get(group)?.length ?? -1);
        expect(now.filter((id) => before.get(group)?.includes(id))).toEqual([]);
      }
      expect(second.child.exitCode).toBeNull();
    }, 120_000);

    test('when SIGTERMed, then it exits 0 having left its consumer groups', async () => {
      const running = processes.at(-1);
      if (!running) throw new Error('no process from the previous test');
      const stoppedAt = Date.now();
      running.child.kill('SIGTERM');
      const exit = await running.exited;
      const stopMs = Date.now() - stoppedAt;
      const left = await members();
      process.stdout.write(`restart: SIGTERM → exit in ${stopMs} ms\n`);

      expect(exit).toEqual({ code: 0, signal: null });
      expect(Object.fromEntries(left)).toEqual(Object.fromEntries(groups.map((group) => [group, []])));
      expect(stopMs).toBeLessThan(10_000);
    }, 30_000);
  });
}
