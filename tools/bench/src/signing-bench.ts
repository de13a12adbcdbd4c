import { fork } from 'node:child_process';
import { createPrivateKey, createSign, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { chatMessageSentBody, createUlidSource, rfc3339Seconds } from './kick-delivery';
import { clockTicks, threadTicks } from './process-stats';
import type { SignAnswer, SignRequest } from './signing-bench-worker';
import { summarize } from './stats';

/**
 * Where the Kick sandbox should make its webhook signatures (RSA-2048, PKCS#1 v1.5, SHA-256 over
 * `<message id>.<timestamp>.<body>`): N chat.message.sent bodies signed at a set rate, at most
 * `--concurrency` at once (the deliverer's slots), in one of four modes:
 *   sync    createSign on the main thread (what the sandbox did)
 *   async   crypto.sign with a callback: libuv's thread pool signs, the main thread only hands over
 *   async1  the same, one signature at a time (the others wait their turn on the main thread)
 *   worker  a pool of `--workers` worker threads, one postMessage each way per signature
 *   idle    the same pacing, nothing signed: the timers' and the probe's own cost, to subtract
 * Each run is a fresh child process; modes alternate, `--rounds` times. Per run: total process CPU
 * (process.cpuUsage(): every thread), the main thread's CPU (/proc/self/task/<pid>/stat) and its
 * event-loop utilisation, the event-loop delay (monitorEventLoopDelay, 1 ms resolution) and how long
 * a signature was ready after it was due.
 *   npm run bench:signing -- --rate 300 --count 3000 --rounds 3 [--modes sync,async,worker,idle] [--burst 1] [--workers 1] [--threadpool 4]
 */

type Mode = 'sync' | 'async' | 'async1' | 'worker' | 'idle';
const modes: readonly Mode[] = ['sync', 'async', 'async1', 'worker', 'idle'];

interface RunOptions {
  mode: Mode;
  count: number;
  warmup: number;
  rate: number;
  /** Signatures made due together (a turn's bot lines), every burst / rate seconds. */
  burst: number;
  concurrency: number;
  workers: number;
}

interface RunResult {
  mode: Mode;
  signatures: number;
  seconds: number;
  cpuMs: number;
  mainCpuMs: number;
  /** The main event loop's active (not waiting) time in the window. */
  mainActiveMs: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  /** From when a signature was due to when it was ready. */
  readyMs: { p50: number; p99: number; max: number };
}

type SignFn = (text: string) => string | Promise<string>;

function signSync(key: KeyObject): SignFn {
  return (text) => createSign('RSA-SHA256').update(text).sign(key, 'base64');
}

function signAsync(key: KeyObject): (text: string) => Promise<string> {
  return (text) =>
    new Promise((resolve, reject) =>
      sign('sha256', Buffer.from(text, 'utf8'), key, (error, signature) =>
        error ? reject(error) : resolve(signature.toString('base64')),
      ),
    );
}

/** Signs in the thread pool one at a time: at most one pool thread busy signing. */
function signAsyncOneAtATime(key: KeyObject): SignFn {
  const signInPool = signAsync(key);
  let last: Promise<unknown> = Promise.resolve();
  return (text) => {
    const signed = last.then(() => signInPool(text));
    last = signed.catch(() => undefined);
    return signed;
  };
}

/** A pool of signing threads: each request goes to the thread with the fewest outstanding. */
function signOnWorkers(privateKeyPem: string, size: number): { sign: SignFn; close(): Promise<void> } {
  const threads = Array.from({ length: size }, () => ({
    worker: new Worker(path.join(__dirname, 'signing-bench-worker.js'), { workerData: { privateKeyPem } }),
    outstanding: 0,
  }));
  const waiting = new Map<number, (signature: string) => void>();
  let nextId = 0;
  for (const thread of threads) {
    thread.worker.on('message', ({ id, signature }: SignAnswer) => {
      thread.outstanding -= 1;
      waiting.get(id)?.(signature);
      waiting.delete(id);
    });
  }
  return {
    sign(text) {
      const thread = threads.reduce((least, candidate) =>
        candidate.outstanding < least.outstanding ? candidate : least,
      );
      const id = nextId++;
      thread.outstanding += 1;
      const request: SignRequest = { id, text };
      thread.worker.postMessage(request);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    async close() {
      await Promise.all(threads.map(({ worker }) => worker.terminate()));
    },
  };
}

/** Distinct texts as the sandbox signs them: `<ULID>.<timestamp>.<chat.message.sent body>`. */
function texts(count: number): string[] {
  const ulid = createUlidSource();
  const now = Date.now();
  return Array.from({ length: count }, (_, index) => {
    const createdAt = rfc3339Seconds(now + index);
    const body = chatMessageSentBody({
      chatMessageId: randomUUID(),
      broadcaster: { userId: 100_000 + (index % 1000), username: `streamer_${index % 1000}` },
      sender: { userId: 42, username: 'kickstand_bot' },
      content: `@viewer_${index} the command answered with a line of ordinary length, number ${index}`,
      createdAt,
    });
    return `${ulid(now)}.${createdAt}.${body}`;
  });
}

/**
 * Signs `items` paced at `rate` a second (in bursts of `burst`), no more than `concurrency`
 * outstanding; resolves with how long each was ready after it was due (ms).
 */
function paced(items: readonly string[], signFn: SignFn | null, options: RunOptions, rate: number): Promise<number[]> {
  const readyAfterDue: number[] = [];
  const start = performance.now();
  const dueAt = (index: number) => start + (Math.floor(index / options.burst) * options.burst * 1000) / rate;
  let issued = 0;
  let outstanding = 0;
  let timer: NodeJS.Timeout | undefined;
  return new Promise((resolve) => {
    const complete = (due: number) => {
      readyAfterDue.push(performance.now() - due);
      if (readyAfterDue.length === items.length) resolve(readyAfterDue);
    };
    const pump = () => {
      while (issued < items.length && outstanding < options.concurrency && dueAt(issued) <= performance.now()) {
        const due = dueAt(issued);
        const text = items[issued] as string;
        issued += 1;
        const signed = signFn ? signFn(text) : '';
        if (typeof signed === 'string') {
          complete(due);
          continue;
        }
        outstanding += 1;
        void signed.then(() => {
          outstanding -= 1;
          complete(due);
          pump();
        });
      }
      if (issued < items.length && outstanding < options.concurrency && !timer) {
        timer = setTimeout(
          () => {
            timer = undefined;
            pump();
          },
          Math.max(0, dueAt(issued) - performance.now()),
        );
      }
    };
    pump();
  });
}

async function runChild(options: RunOptions): Promise<RunResult> {
  const { privateKey: privateKeyPem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const key = createPrivateKey(privateKeyPem);
  const pool = options.mode === 'worker' ? signOnWorkers(privateKeyPem, options.workers) : undefined;
  const signers: Record<Mode, SignFn | null> = {
    sync: signSync(key),
    async: signAsync(key),
    async1: signAsyncOneAtATime(key),
    worker: pool?.sign ?? null,
    idle: null,
  };
  const signFn = signers[options.mode];
  const all = texts(options.warmup + options.count);

  if (signFn) {
    // every mode must make the very bytes the synchronous signer makes
    const [first = ''] = all;
    if ((await signFn(first)) !== signSync(key)(first)) throw new Error(`${options.mode} signs differently`);
  }
  await paced(all.slice(0, options.warmup), signFn, options, Number.POSITIVE_INFINITY);

  const delay = monitorEventLoopDelay({ resolution: 1 });
  const pid = String(process.pid);
  const mainTicksBefore = threadTicks('self').get(pid) ?? 0;
  const cpuBefore = process.cpuUsage();
  const eluBefore = performance.eventLoopUtilization();
  const started = performance.now();
  delay.enable();
  const ready = await paced(all.slice(options.warmup), signFn, options, options.rate);
  delay.disable();
  const seconds = (performance.now() - started) / 1000;
  const elu = performance.eventLoopUtilization(eluBefore);
  const cpu = process.cpuUsage(cpuBefore);
  const mainTicks = (threadTicks('self').get(pid) ?? 0) - mainTicksBefore;
  await pool?.close();

  const ms = (nanoseconds: number) => nanoseconds / 1e6;
  const readySummary = summarize(ready);
  return {
    mode: options.mode,
    signatures: options.count,
    seconds,
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainCpuMs: (mainTicks * 1000) / clockTicks(),
    mainActiveMs: elu.active,
    loopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    readyMs: { p50: readySummary.p50, p99: readySummary.p99, max: readySummary.max },
  };
}

function runInChild(options: RunOptions, threadpool: string | undefined): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env = threadpool ? { ...process.env, UV_THREADPOOL_SIZE: threadpool } : process.env;
    const child = fork(__filename, ['--child', JSON.stringify(options)], { env });
    child.once('message', (result: RunResult) => resolve(result));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the ${options.mode} run exited with ${code}`));
    });
  });
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      modes: { type: 'string', default: 'sync,async,worker,idle' },
      rounds: { type: 'string', default: '3' },
      count: { type: 'string', default: '3000' },
      warmup: { type: 'string', default: '300' },
      rate: { type: 'string', default: '300' },
      burst: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '16' },
      workers: { type: 'string', default: '1' },
      threadpool: { type: 'string' },
    },
  });
  if (values.child) {
    const result = await runChild(JSON.parse(values.child) as RunOptions);
    process.send?.(result, () => process.exit(0));
    return;
  }
  const chosen = values.modes.split(',').map((name) => {
    if (!modes.includes(name as Mode)) throw new Error(`unknown mode ${name} (${modes.join(', ')})`);
    return name as Mode;
  });
  const common = {
    count: Number(values.count),
    warmup: Number(values.warmup),
    rate: Number(values.rate),
    burst: Number(values.burst),
    concurrency: Number(values.concurrency),
    workers: Number(values.workers),
  };
  console.log(
    `${common.count} signatures at ${common.rate}/s (bursts of ${common.burst}, ≤ ${common.concurrency} at once), ` +
      `${values.rounds} rounds; workers ${common.workers}, UV_THREADPOOL_SIZE ${values.threadpool ?? 'default (4)'}`,
  );
  console.log(
    'mode    total CPU µs/sig  main CPU µs/sig  main active µs/sig  loop delay p50/p99/max ms  ready p50/p99/max ms',
  );
  const results: RunResult[] = [];
  for (let round = 0; round < Number(values.rounds); round += 1) {
    for (const mode of chosen) {
      const result = await runInChild({ ...common, mode }, values.threadpool);
      results.push(result);
      const perSignature = (ms: number) => fixed((ms * 1000) / result.signatures);
      const { loopDelayMs: delay, readyMs: ready } = result;
      console.log(
        `${mode.padEnd(7)} ${perSignature(result.cpuMs).padStart(16)} ${perSignature(result.mainCpuMs).padStart(16)} ` +
          `${perSignature(result.mainActiveMs).padStart(19)}  ${`${fixed(delay.p50, 2)} / ${fixed(delay.p99, 2)} / ${fixed(delay.max, 1)}`.padStart(25)}` +
          `  ${`${fixed(ready.p50, 2)} / ${fixed(ready.p99, 2)} / ${fixed(ready.max, 1)}`.padStart(20)}`,
      );
    }
  }
  const idle = results.filter((result) => result.mode === 'idle');
  const idleCpu = idle.length > 0 ? median(idle.map((result) => result.cpuMs)) : 0;
  const idleMain = idle.length > 0 ? median(idle.map((result) => result.mainCpuMs)) : 0;
  console.log(`\nmedians, net of the idle run's median (${fixed(idleCpu)} ms total, ${fixed(idleMain)} ms main):`);
  for (const mode of chosen.filter((name) => name !== 'idle')) {
    const runs = results.filter((result) => result.mode === mode);
    const net = (pick: (result: RunResult) => number, base: number) =>
      runs.map((result) => ((pick(result) - base) * 1000) / result.signatures);
    const cpu = net((result) => result.cpuMs, idleCpu);
    const main = net((result) => result.mainCpuMs, idleMain);
    const spread = (values: number[]) =>
      `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
    console.log(`${mode.padEnd(7)} total ${spread(cpu)} µs/sig, main thread ${spread(main)} µs/sig`);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
