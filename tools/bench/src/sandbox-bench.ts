import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, repoRoot } from './deployment';
import { cpuSeconds } from './process-stats';

/**
 * The Kick sandbox's cost per bot reply (issue 22: in the bench it shares the 2 cores with
 * Kickstand). The sandbox runs as the bench starts it (its own process, dist/main.js, embedded
 * store, LOG_LEVEL warn, NODE_ENV production); this process plays the product: N bot lines
 * `POST /public/v1/chat` (type bot, a reply to an unknown message id, as kick-link's replies in the
 * bench), each echoed by the sandbox as a signed chat.message.sent webhook to a local receiver that
 * answers 200, while a poller follows `GET /sandbox/api/chat?type=bot` as the bench does. The figure
 * is the sandbox's CPU (utime + stime of /proc/<pid>/stat) from the first measured line to the last
 * webhook received, per line.
 *   npm run bench:sandbox -- --lines 6000 --rate 300 [--channels 50] [--root /work/main] [--cpu-prof <dir>] [--loop-delay] [--node-flag=<flag>]…
 * `--root` runs another checkout's built sandbox (before/after); `--rate 0` posts as fast as
 * `--concurrency` allows.
 */

const clientId = 'kickstand-local';
const clientSecret = 'kickstand-local-secret';
const redirectUri = 'http://localhost:3000/api/kick/oauth/callback';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      lines: { type: 'string', default: '6000' },
      warmup: { type: 'string', default: '1000' },
      rate: { type: 'string', default: '300' },
      concurrency: { type: 'string', default: '16' },
      channels: { type: 'string', default: '50' },
      root: { type: 'string', default: repoRoot },
      'cpu-prof': { type: 'string' },
      /** Extra flags for the sandbox's node (e.g. --trace-gc); repeatable. */
      'node-flag': { type: 'string', multiple: true, default: [] },
      /** The sandbox's event-loop delay over the whole run (loop-delay-probe.ts). */
      'loop-delay': { type: 'boolean', default: false },
    },
  });
  const lines = Number(values.lines);
  const warmup = Number(values.warmup);
  const rate = Number(values.rate);
  const concurrency = Number(values.concurrency);
  const channelCount = Number(values.channels);

  let received = 0;
  let onReceived = () => {};
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-length': '0' }).end();
      onReceived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/kick/webhook`;

  const dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profFlags = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
  const loopDelayFile = path.join(dataDir, 'loop-delay.json');
  const probeFlags = values['loop-delay'] ? [`--require=${path.join(__dirname, 'loop-delay-probe.js')}`] : [];
  const child = spawn(
    process.execPath,
    [...profFlags, ...probeFlags, ...values['node-flag'], path.join(values.root, 'tools/kick-sandbox/dist/main.js')],
    {
      cwd: values.root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        LOOP_DELAY_FILE: loopDelayFile,
        PORT: String(port),
        DATA_DIR: dataDir,
        KICK_SANDBOX_PUBLIC_URL: `http://localhost:${port}`,
        KICK_SANDBOX_WEBHOOK_URL: webhookUrl,
        KICK_SANDBOX_SUBSCRIPTION_LIMIT: '100000',
        KICK_SANDBOX_ACCEPT_UNKNOWN_REPLY_TARGETS: 'true',
      },
    },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('the sandbox did not start');
  let result: Record<string, unknown> | undefined;
  try {
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await fetch(`${url}/readyz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (tries > 300) throw new Error('the sandbox was not ready');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const tokens: string[] = [];
    for (let i = 0; i < channelCount; i += 1) tokens.push(await linkChannel(url, `bench_sandbox_${i}`));

    let afterSeq = 0;
    let isPolling = true;
    let polled = 0;
    const poller = (async () => {
      while (isPolling) {
        const response = await fetch(`${url}/sandbox/api/chat?type=bot&afterSeq=${afterSeq}&limit=1000&waitMs=1000`);
        const json = (await response.json()) as { data?: { seq: number }[] };
        for (const line of json.data ?? []) afterSeq = Math.max(afterSeq, line.seq);
        polled += json.data?.length ?? 0;
        if ((json.data?.length ?? 0) < 1000) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    /** How long each measured POST /chat took to be answered, as the product sees it (ms). */
    const answerMs: number[] = [];
    let isMeasuring = false;
    const post = async (index: number) => {
      const sent = performance.now();
      const response = await fetch(`${url}/public/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[index % tokens.length]}` },
        body: JSON.stringify({
          type: 'bot',
          content: `@viewer_${index % 97} the answer to line ${index} is ${index * 7}`,
          reply_to_message_id: randomUUID(),
        }),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`POST /chat → ${response.status} ${text}`);
      if (isMeasuring) answerMs.push(performance.now() - sent);
    };
    const run = async (from: number, count: number) => {
      const started = performance.now();
      let next = from;
      const worker = async () => {
        while (next < from + count) {
          const index = next++;
          if (rate > 0) {
            const due = started + ((index - from) * 1000) / rate;
            const wait = due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          }
          await post(index);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      await new Promise<void>((resolve) => {
        onReceived = () => {
          if (received >= from + count) resolve();
        };
        onReceived();
      });
    };

    await run(0, warmup);
    const cpuBefore = cpuSeconds(pid) ?? Number.NaN;
    const started = performance.now();
    isMeasuring = true;
    await run(warmup, lines);
    const cpuAfter = cpuSeconds(pid) ?? Number.NaN;
    const seconds = (performance.now() - started) / 1000;
    isPolling = false;
    await poller;
    const cpuMs = (cpuAfter - cpuBefore) * 1000;
    result = {
      root: values.root,
      lines,
      rate,
      seconds: Number(seconds.toFixed(1)),
      webhooksReceived: received,
      linesPolled: polled,
      sandboxCpuMs: Math.round(cpuMs),
      sandboxCpuMsPerLine: Number((cpuMs / lines).toFixed(3)),
      sandboxCores: Number((cpuMs / 1000 / seconds).toFixed(3)),
      postChatMs: percentiles(answerMs),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    if (result && values['loop-delay']) result.sandbox = JSON.parse(await readFile(loopDelayFile, 'utf8')) as unknown;
    receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (result) console.log(JSON.stringify(result));
}

/** p50/p95/p99/max of the answer times, in ms to a tenth. */
function percentiles(values: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}

/** A streamer that linked the app (PKCE with the sandbox's auto-approval) and subscribed to its chat. */
async function linkChannel(url: string, username: string): Promise<string> {
  const created = await fetch(`${url}/sandbox/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username }),
  });
  if (created.status !== 201) throw new Error(`create ${username} → ${created.status} ${await created.text()}`);
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'user:read chat:write events:subscribe',
    state: 'bench',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    sandbox_auto_approve: username,
  });
  const authorized = await fetch(`${url}/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
  const code = new URL(authorized.headers.get('location') ?? '').searchParams.get('code');
  if (!code) throw new Error(`no code for ${username}`);
  const exchanged = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      client_secret: clientSecret,
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  const token = ((await exchanged.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`no token for ${username}`);
  const subscribed = await fetch(`${url}/public/v1/events/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] }),
  });
  if (subscribed.status !== 200) throw new Error(`subscribe ${username} → ${subscribed.status}`);
  return token;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
