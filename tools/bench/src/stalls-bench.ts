import { randomUUID } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type * as LogModule from '@kickstand/platform/log';
import type * as StoreModule from '@kickstand/platform/store';
import { rounded, summarize } from './stats';

/**
 * The owner thread's periodic long tasks (docs/performance.md, "The owner's long tasks, second
 * round"), each with a stand-in for the webhook work beside it: a worker thread sends a UDP
 * datagram every millisecond and the main thread handles each with `--work-us` µs of busy CPU.
 * Reports, for the window the periodic work runs in: that work's wall time and the process's CPU,
 * the datagrams' latency (sent → handled, ms), the event loop's delay (monitorEventLoopDelay at
 * 1 ms resolution: its max is the longest synchronous stretch) and its utilisation.
 *
 *   --what count-flush: auth's command-count flush of `--executions` executions (1,000 is 5 s at
 *     1,000 msg/s with a fifth of the lines commands), `--rounds` flushes, on the embedded store;
 *   --what recent-log: a recent log of `--channels` keys × 100 entries (realtime's chat history)
 *     written on at `--lines-per-ms` until `--compactions` compactions have run (each one's window:
 *     from its temporary file's appearance to its end);
 *   --what datafile: the embedded store's datafile rewrite (compaction.ts) of `--docs` documents
 *     shaped like analytics' minute documents (~5 kB: 300 chatters' names), `--rounds` rewrites.
 *
 *   npm run bench:stalls -- --what count-flush|recent-log [--work-us 300] [--root <checkout>]
 *
 * `--root` loads another checkout's builds (packages/platform/dist, services/auth/dist) for a
 * before/after.
 */

const { values } = parseArgs({
  options: {
    what: { type: 'string', default: 'count-flush' },
    'work-us': { type: 'string', default: '300' },
    executions: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    channels: { type: 'string', default: '1000' },
    'lines-per-ms': { type: 'string', default: '10' },
    compactions: { type: 'string', default: '3' },
    docs: { type: 'string', default: '5000' },
    root: { type: 'string', default: path.join(__dirname, '../../..') },
  },
});
const root = path.resolve(values.root);
const workUs = Number(values['work-us']);

const wallMs = () => performance.timeOrigin + performance.now();

/** Datagrams from a worker every ms, each handled here with `workUs` of busy CPU; latencies kept while recording. */
async function startLoad(): Promise<{ record(on: boolean): number[]; stop(): Promise<void> }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  let recording: number[] | undefined;
  socket.on('message', (message) => {
    const sentAt = message.readDoubleLE(0);
    const until = performance.now() + workUs / 1000;
    while (performance.now() < until) {
      // the webhook's CPU
    }
    recording?.push(wallMs() - sentAt);
  });
  const worker = new Worker(
    `const { createSocket } = require('node:dgram');
     const { workerData } = require('node:worker_threads');
     const socket = createSocket('udp4');
     const message = Buffer.alloc(8);
     setInterval(() => {
       message.writeDoubleLE(performance.timeOrigin + performance.now(), 0);
       socket.send(message, workerData.port, '127.0.0.1');
     }, 1);`,
    { eval: true, workerData: { port: socket.address().port } },
  );
  return {
    record(on) {
      const samples = recording ?? [];
      recording = on ? [] : undefined;
      return samples;
    },
    async stop() {
      await worker.terminate();
      socket.close();
    },
  };
}

/** Measures what happens while `work` runs. */
async function measure(load: Awaited<ReturnType<typeof startLoad>>, work: () => Promise<void>) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const eluBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  load.record(true);
  delay.enable();
  await work();
  delay.disable();
  const latencies = load.record(false);
  const cpu = process.cpuUsage(cpuBefore);
  const elu = performance.eventLoopUtilization(eluBefore);
  return {
    wallMs: Math.round(performance.now() - startedAt),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    loopUtilisation: Number(elu.utilization.toFixed(2)),
    // resolution 1 ms: a sample is the timer's lateness, so max is the longest block (plus ~1 ms)
    loopDelayMs: { p99: Number((delay.percentile(99) / 1e6).toFixed(1)), max: Number((delay.max / 1e6).toFixed(1)) },
    datagramMs: rounded(summarize(latencies), 1),
  };
}

interface Execution {
  seenKey: string;
  usageId: string;
  date: string;
  command: string;
  kind: 'custom';
}

async function countFlush(load: Awaited<ReturnType<typeof startLoad>>): Promise<void> {
  const authDist = path.join(root, 'services/auth/dist');
  const requireFromAuth = createRequire(path.join(authDist, 'repository.js'));
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createAuthRepository } = require(path.join(authDist, 'repository.js')) as {
    createAuthRepository(store: StoreModule.Store): {
      createIndexes(): Promise<void>;
      commandUsage: { open(now: Date): Promise<void> };
    };
  };
  const { createCommandCounter } = require(path.join(authDist, 'command-counter.js')) as {
    createCommandCounter(deps: {
      repo: unknown;
      clock: { now(): Date };
      log: LogModule.Logger;
      flushIntervalMs: number;
    }): {
      record(execution: Execution): Promise<boolean>;
      flush(): Promise<void>;
    };
  };
  const storeModule = require(requireFromAuth.resolve('@kickstand/platform/store')) as typeof StoreModule;
  const logModule = require(requireFromAuth.resolve('@kickstand/platform/log')) as typeof LogModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-stalls-bench-'));
  try {
    const store = await storeModule.createEmbeddedStore({ dir, sweepIntervalMs: 3_600_000 });
    const repo = createAuthRepository(store);
    await repo.createIndexes();
    await repo.commandUsage.open(new Date());
    const counter = createCommandCounter({
      repo,
      clock: { now: () => new Date() },
      log: logModule.createSilentLogger(),
      flushIntervalMs: 0,
    });
    const executions = Number(values.executions);
    for (let round = 0; round <= Number(values.rounds); round++) {
      for (let first = 0; first < executions; first += 16) {
        await Promise.all(
          Array.from({ length: Math.min(16, executions - first) }, (_, k) =>
            counter.record({
              seenKey: randomUUID(),
              // ~300 day-and-command counts, as the profiled run had
              usageId: `2026-11-26:command${(first + k) % 300}`,
              date: '2026-11-26',
              command: `command${(first + k) % 300}`,
              kind: 'custom',
            }),
          ),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const figures = await measure(load, () => counter.flush());
      // round 0 warms up (code compiled, day documents made)
      if (round > 0) console.log(JSON.stringify({ what: 'count-flush', round, executions, ...figures }));
    }
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function recentLog(load: Awaited<ReturnType<typeof startLoad>>): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createRecentLog } = require(path.join(root, 'packages/platform/dist/store/recent-log.js')) as {
    createRecentLog(options: {
      dir: string;
      keepPerKey: number;
      log: LogModule.Logger;
      afterCompaction?: () => void;
    }): StoreModule.RecentLog<{ text: string }> & { close(): Promise<void> };
  };
  const logModule = require(path.join(root, 'packages/platform/dist/log/index.js')) as typeof LogModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-stalls-bench-'));
  const channels = Number(values.channels);
  const linesPerMs = Number(values['lines-per-ms']);
  try {
    let compactions = 0;
    const log = createRecentLog({
      dir,
      keepPerKey: 100,
      log: logModule.createSilentLogger(),
      afterCompaction: () => (compactions += 1),
    });
    await log.open();
    let i = 0;
    const append = () => {
      const n = i++;
      const at = new Date(Date.UTC(2026, 10, 26) + n * 10);
      return log.append(`user-${n % channels}`, randomUUID(), at, {
        text: `message number ${n}: hello chat, how is everyone doing today? [emote:37226:KEKW]`,
        username: `viewer_${n % 5000}`,
        timestamp: at.toISOString(),
        badges: n % 3 === 0 ? [{ type: 'subscriber' }] : [],
      } as { text: string });
    };
    // every key full, twice over (the compactions of the fill run meanwhile)
    for (let n = 0; n < 2 * channels * 100; n += 32) await Promise.all(Array.from({ length: 32 }, append));
    const filled = compactions;
    while (compactions === filled) await Promise.all(Array.from({ length: 32 }, append));
    // lines at a steady pace until a compaction begins (its temporary file appears) and ends
    const temp = path.join(dir, 'compaction.tmp');
    const writer = setInterval(() => {
      for (let k = 0; k < linesPerMs; k++) void append();
    }, 1);
    for (let round = 1; round <= Number(values.compactions); round++) {
      const before = compactions;
      while (!existsSync(temp)) await new Promise((resolve) => setTimeout(resolve, 1));
      const figures = await measure(load, async () => {
        while (compactions === before) await new Promise((resolve) => setTimeout(resolve, 1));
      });
      console.log(JSON.stringify({ what: 'recent-log', round, channels, linesPerMs, ...figures }));
    }
    clearInterval(writer);
    await log.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function datafile(load: Awaited<ReturnType<typeof startLoad>>): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { rewriteDatafile } = require(path.join(root, 'packages/platform/dist/store/compaction.js')) as {
    rewriteDatafile(options: {
      filename: string;
      fileMode: number;
      journal: unknown;
      snapshot: { docs: object[]; indexes: [] };
    }): Promise<void>;
  };
  const { createJournal } = require(path.join(root, 'packages/platform/dist/store/journal.js')) as {
    createJournal(filename: string, mode: number): { startCapture(): void; close(): Promise<void> };
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-stalls-bench-'));
  try {
    const docs = Array.from({ length: Number(values.docs) }, (_, i) => ({
      _id: `user-${i % 1000}:2026-11-26T12:${String(Math.floor(i / 1000)).padStart(2, '0')}`,
      lines: 60,
      chatters: Object.fromEntries(Array.from({ length: 300 }, (_, k) => [`viewer_${(i * 7 + k) % 5000}`, 1])),
    }));
    const filename = path.join(dir, 'analytics.db');
    for (let round = 0; round <= Number(values.rounds); round++) {
      const journal = createJournal(filename, 0o600);
      journal.startCapture();
      const figures = await measure(load, () =>
        rewriteDatafile({ filename, fileMode: 0o600, journal, snapshot: { docs, indexes: [] } }),
      );
      await journal.close();
      if (round > 0) console.log(JSON.stringify({ what: 'datafile', round, docs: docs.length, ...figures }));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const load = await startLoad();
  try {
    if (values.what === 'count-flush') await countFlush(load);
    else if (values.what === 'recent-log') await recentLog(load);
    else if (values.what === 'datafile') await datafile(load);
    else throw new Error('--what count-flush | recent-log | datafile');
  } finally {
    await load.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
