import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as LogModule from '@kickstand/platform/log';
import type * as StoreModule from '@kickstand/platform/store';
import type * as ProtoModule from '@kickstand/proto';
import { heapAfterGc } from './heap';

/**
 * The commands service's usage per command on the embedded store (docs/performance.md, "Usage per
 * command"): `--executions` command.executed of custom commands at `--rate` a second of a fake
 * clock, spread over `--pairs` (streamer, command) pairs, each counted by the service's
 * CommandUsage (usage/command-usage.ts) as its consumer does, `inFlight` at once. Reports CPU µs
 * per execution (process.cpuUsage), the heap still held at the end (heapUsed after a full GC,
 * minus before the run), the typed arrays held (the embedded claim set's) and the bytes the
 * store's files grew by per execution.
 *
 * `--commands <build>/services/commands/dist` loads another build's usage (and the platform that
 * build resolves) for a before/after; `--window` the redelivery window in seconds (600, the
 * in-process bus's, by default; an earlier build ignores it).
 *
 *   npm run bench:command-usage -- [--executions 200000] [--pairs 8000] [--rate 200] [--window 600] [--commands …]
 */

const { values } = parseArgs({
  options: {
    executions: { type: 'string', default: '200000' },
    pairs: { type: 'string', default: '8000' },
    rate: { type: 'string', default: '200' },
    window: { type: 'string', default: '600' },
    commands: { type: 'string' },
  },
});

/** What this bench uses of usage/command-usage.ts and usage/repository.ts (both builds have it). */
interface Repo {
  createIndexes(): Promise<void>;
}
interface UsageModules {
  createCommandUsageRepository(store: StoreModule.Store, options?: { redeliveryWindowSeconds: number }): Repo;
  createCommandUsage(deps: {
    repo: Repo;
    clock: { now(): Date };
    log: LogModule.Logger;
    redeliveryWindowSeconds: number;
  }): { recordExecution(message: ProtoModule.CommandExecuted): Promise<void> };
}

/** Executions counted at once, as the consumer has several streamers' messages in flight. */
const inFlight = 16;
const commandsPerStreamer = 8;

async function loadUsage(commandsDist: string): Promise<{
  usage: UsageModules;
  store: typeof StoreModule;
  log: typeof LogModule;
  proto: typeof ProtoModule;
}> {
  const load = async (file: string) => (await import(pathToFileURL(path.join(commandsDist, file)).href)) as unknown;
  // the platform the commands build itself resolves, so a store of that build meets its own repository
  const requireFromCommands = createRequire(path.join(commandsDist, 'usage/repository.js'));
  const importResolved = async (name: string) =>
    (await import(pathToFileURL(requireFromCommands.resolve(name)).href)) as unknown;
  const usageModule = (await load('usage/command-usage.js')) as Pick<UsageModules, 'createCommandUsage'>;
  const repositoryModule = (await load('usage/repository.js')) as Pick<UsageModules, 'createCommandUsageRepository'>;
  return {
    usage: {
      createCommandUsage: usageModule.createCommandUsage,
      createCommandUsageRepository: repositoryModule.createCommandUsageRepository,
    },
    store: (await importResolved('@kickstand/platform/store')) as typeof StoreModule,
    log: (await importResolved('@kickstand/platform/log')) as typeof LogModule,
    proto: (await importResolved('@kickstand/proto')) as typeof ProtoModule,
  };
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function main(): Promise<void> {
  const count = Number(values.executions);
  const pairs = Number(values.pairs);
  const rate = Number(values.rate);
  const windowSeconds = Number(values.window);
  const commandsDist = path.resolve(values.commands ?? path.join(__dirname, '../../../services/commands/dist'));
  const { usage: modules, store: storeModule, log, proto } = await loadUsage(commandsDist);
  let nowMs = Date.UTC(2026, 10, 26, 12);
  const clock = { now: () => new Date(nowMs) };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-command-usage-bench-'));
  try {
    // the sweep and compaction run on the wall clock: kept out of the run
    const store = await storeModule.createEmbeddedStore({ dir, clock, sweepIntervalMs: 3_600_000 });
    const repo = modules.createCommandUsageRepository(store, { redeliveryWindowSeconds: windowSeconds });
    await repo.createIndexes();
    const usage = modules.createCommandUsage({
      repo,
      clock,
      log: log.createSilentLogger(),
      redeliveryWindowSeconds: windowSeconds,
    });
    const executed = (i: number): ProtoModule.CommandExecuted => {
      const pair = i % pairs;
      const at = proto.timestampFromDate(clock.now());
      return {
        eventId: randomUUID(),
        ownerUserId: `user-${Math.floor(pair / commandsPerStreamer)}`,
        command: `command${pair % commandsPerStreamer}`,
        kind: proto.CommandKind.CUSTOM,
        occurredAt: at,
        executedAt: at,
      } as ProtoModule.CommandExecuted;
    };
    // warm-up: the code paths compiled (other pairs than the run's first ones)
    for (let i = 0; i < 2_000; i++) await usage.recordExecution(executed(i + pairs / 2));

    const heapBefore = heapAfterGc();
    const arrayBuffersBefore = process.memoryUsage().arrayBuffers;
    const bytesBefore = await bytesUnder(dir);
    const cpuBefore = process.cpuUsage();
    const stepMs = (1000 / rate) * inFlight;
    for (let start = 0; start < count; start += inFlight) {
      nowMs += stepMs;
      const batch = Array.from({ length: Math.min(inFlight, count - start) }, (_, k) => executed(start + k));
      await Promise.all(batch.map((one) => usage.recordExecution(one)));
    }
    const cpu = process.cpuUsage(cpuBefore);
    const heldBytes = heapAfterGc() - heapBefore;
    // the embedded claim set keeps its claims in typed arrays, outside the V8 heap
    const heldArrayBuffers = process.memoryUsage().arrayBuffers - arrayBuffersBefore;
    const bytesWritten = (await bytesUnder(dir)) - bytesBefore;
    await store.close();
    console.log(
      JSON.stringify({
        commands: values.commands ?? 'this checkout',
        executions: count,
        pairs,
        rate,
        cpuMicrosPerExecution: Number(((cpu.user + cpu.system) / count).toFixed(1)),
        heapHeldMb: Number((heldBytes / 1024 / 1024).toFixed(1)),
        heapBytesPerPair: Math.round(heldBytes / pairs),
        arrayBuffersHeldMb: Number((heldArrayBuffers / 1024 / 1024).toFixed(1)),
        fileBytesPerExecution: Math.round(bytesWritten / count),
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
