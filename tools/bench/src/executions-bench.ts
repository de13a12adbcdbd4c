import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as LogModule from '@kickstand/platform/log';
import type * as StoreModule from '@kickstand/platform/store';
import { heapAfterGc } from './heap';

/**
 * auth's command usage counting on the embedded store (docs/performance.md, "Retention of the
 * per-reply records"): `--executions` command.executed at `--rate` a second of a fake clock, each
 * recorded by auth's counter (its log insert and seen-key check) and counted by a flush every 5 s
 * of that clock, as the service does. Reports CPU µs per execution (process.cpuUsage, records and
 * flushes), the heap the counted executions still hold at the end (heapUsed after a full GC, minus
 * before, per execution) and the execution documents left.
 *
 * `--auth <build>/services/auth/dist` loads another build's counter and repository (and the
 * platform that build resolves) for a before/after; `--window` the redelivery window in seconds
 * (259200, Kafka's default, by default: nothing counted expires within the run, so the heap is
 * what each counted execution holds; an earlier build ignores it and keeps its three days).
 *
 *   npm run bench:executions -- [--executions 200000] [--rate 200] [--window 259200] [--auth …]
 */

const { values } = parseArgs({
  options: {
    executions: { type: 'string', default: '200000' },
    rate: { type: 'string', default: '200' },
    window: { type: 'string', default: String(3 * 24 * 3600) },
    auth: { type: 'string' },
  },
});

/** What this bench uses of auth's command-counter.ts and repository.ts (both builds have it). */
interface Execution {
  seenKey: string;
  usageId: string;
  date: string;
  command: string;
  kind: 'custom';
}
interface Repo {
  createIndexes(): Promise<void>;
  /** `open` exists from the counted set on. */
  commandUsage: { open?: (now: Date) => Promise<void> };
}
interface AuthModules {
  createAuthRepository(store: StoreModule.Store, options?: { redeliveryWindowSeconds: number }): Repo;
  createCommandCounter(deps: { repo: Repo; clock: { now(): Date }; log: LogModule.Logger; flushIntervalMs: number }): {
    record(execution: Execution): Promise<boolean>;
    flush(): Promise<void>;
  };
}

const flushEveryMs = 5_000;
/** Executions recorded at once, as a busy partition's consumer has them in flight. */
const inFlight = 16;

async function loadAuth(authDist: string): Promise<{
  auth: AuthModules;
  store: typeof StoreModule;
  log: typeof LogModule;
}> {
  const load = async (file: string) => (await import(pathToFileURL(path.join(authDist, file)).href)) as unknown;
  // the platform the auth build itself resolves, so a store of that build meets its own repository
  const requireFromAuth = createRequire(path.join(authDist, 'repository.js'));
  const counterModule = (await load('command-counter.js')) as Pick<AuthModules, 'createCommandCounter'>;
  const repositoryModule = (await load('repository.js')) as Pick<AuthModules, 'createAuthRepository'>;
  return {
    auth: {
      createAuthRepository: repositoryModule.createAuthRepository,
      createCommandCounter: counterModule.createCommandCounter,
    },
    store: (await import(
      pathToFileURL(requireFromAuth.resolve('@kickstand/platform/store')).href
    )) as typeof StoreModule,
    log: (await import(pathToFileURL(requireFromAuth.resolve('@kickstand/platform/log')).href)) as typeof LogModule,
  };
}

async function main(): Promise<void> {
  const count = Number(values.executions);
  const rate = Number(values.rate);
  const windowSeconds = Number(values.window);
  const authDist = path.resolve(values.auth ?? path.join(__dirname, '../../../services/auth/dist'));
  const { auth, store: storeModule, log } = await loadAuth(authDist);
  let nowMs = Date.UTC(2026, 10, 26, 12);
  const clock = { now: () => new Date(nowMs) };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-executions-bench-'));
  try {
    // the sweep runs on the wall clock: kept out of the run (nothing expires within it anyway)
    const store = await storeModule.createEmbeddedStore({ dir, clock, sweepIntervalMs: 3_600_000 });
    const repo = auth.createAuthRepository(store, { redeliveryWindowSeconds: windowSeconds });
    await repo.createIndexes();
    await repo.commandUsage.open?.(clock.now());
    const counter = auth.createCommandCounter({ repo, clock, log: log.createSilentLogger(), flushIntervalMs: 0 });
    const execution = (i: number): Execution => ({
      seenKey: randomUUID(),
      usageId: `2026-11-26:command${i % 50}`,
      date: '2026-11-26',
      command: `command${i % 50}`,
      kind: 'custom',
    });
    // warm-up: the code paths compiled, the day documents made
    for (let i = 0; i < 2_000; i++) await counter.record(execution(i));
    await counter.flush();

    const heapBefore = heapAfterGc();
    const cpuBefore = process.cpuUsage();
    const stepMs = (1000 / rate) * inFlight;
    let lastFlushMs = nowMs;
    for (let start = 0; start < count; start += inFlight) {
      nowMs += stepMs;
      const batch = Array.from({ length: Math.min(inFlight, count - start) }, (_, k) => execution(start + k));
      await Promise.all(batch.map((one) => counter.record(one)));
      if (nowMs - lastFlushMs >= flushEveryMs) {
        lastFlushMs = nowMs;
        await counter.flush();
      }
    }
    await counter.flush();
    const cpu = process.cpuUsage(cpuBefore);
    const heldBytes = heapAfterGc() - heapBefore;
    const documentsLeft = await store.collection('command-executions').count();
    await store.close();
    console.log(
      JSON.stringify({
        auth: values.auth ?? 'this checkout',
        executions: count,
        rate,
        cpuMicrosPerExecution: Number(((cpu.user + cpu.system) / count).toFixed(1)),
        heapBytesPerExecution: Math.round(heldBytes / count),
        heapHeldMb: Number((heldBytes / 1024 / 1024).toFixed(1)),
        documentsLeft,
        rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
