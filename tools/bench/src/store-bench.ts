import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbeddedStore } from '@kickstand/platform/store';
import { lmdbOps, memoryLogOps, portOps, type HotPathOps, type LogEntry } from './store-ops';

/**
 * The store micro-bench of issue 22 (item 3): the store work of N chat messages on one candidate,
 * in this process, with no HTTP and no bus. Per message: the webhook claim (an insert on a unique
 * _id, by default 1 in 20 a redelivery that must come back as a duplicate), a findOneAndUpdate $inc, a read of
 * the claim by _id, and the message in the chat log (written in batches of 10); then one TTL sweep
 * of every claim. Reports wall-clock ops/s, CPU µs per message (process.cpuUsage: robust on a
 * shared machine) and RSS. Usage: npm run bench:store -- [--messages N] [--candidates nedb,lmdb,memlog]
 * [--redelivery-every 20 (0: none)]
 */

const batchSize = 10;
/** Messages in flight at once, as concurrent webhook deliveries would be. */
const concurrency = 32;

export const candidates = {
  nedb: async (dir: string) => portOps(await createEmbeddedStore({ dir })),
  lmdb: async (dir: string) => lmdbOps(dir),
  memlog: async (dir: string) => memoryLogOps(dir),
} satisfies Record<string, (dir: string) => Promise<HotPathOps>>;
type CandidateName = keyof typeof candidates;

interface PhaseFigures {
  ops: number;
  wallMs: number;
  cpuMs: number;
}

interface Result {
  candidate: CandidateName;
  messages: PhaseFigures;
  sweep: PhaseFigures;
  rssMb: number;
}

function measure<T>(run: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const cpuBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  return run().then((value) => {
    const cpu = process.cpuUsage(cpuBefore);
    return {
      value,
      wallMs: Number(process.hrtime.bigint() - wallBefore) / 1e6,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  });
}

/** The store work of message `index` (see the header). */
async function oneMessage(
  ops: HotPathOps,
  index: number,
  pendingLog: LogEntry[],
  redeliveryEvery: number,
): Promise<void> {
  const at = new Date(Date.UTC(2100, 0, 1) + index);
  const messageId = `msg-${index}`;
  if ((await ops.claim(messageId, at)) !== 'claimed') throw new Error(`${messageId} claimed twice`);
  if (redeliveryEvery > 0 && index % redeliveryEvery === 0 && (await ops.claim(messageId, at)) !== 'duplicate') {
    throw new Error(`the redelivery of ${messageId} was not refused`);
  }
  await ops.bump(`rate:channel-${index % 100}`);
  if ((await ops.readClaim(messageId)) === null) throw new Error(`claim ${messageId} not found`);
  pendingLog.push({
    _id: messageId,
    channel: `channel-${index % 100}`,
    sender: 'viewer',
    content: 'hello chat',
    sentAt: at,
  });
  if (pendingLog.length >= batchSize) await ops.logBatch(pendingLog.splice(0));
}

/** `redeliveryEvery`: 1 message in this many is delivered twice (0: none). */
export async function runCandidate(name: CandidateName, messages: number, redeliveryEvery = 20): Promise<Result> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `kickstand-store-bench-${name}-`));
  try {
    const ops = await candidates[name](dir);
    const pendingLog: LogEntry[] = [];
    let next = 0;
    const worker = async () => {
      while (next < messages) await oneMessage(ops, next++, pendingLog, redeliveryEvery);
    };
    const hot = await measure(() => Promise.all(Array.from({ length: concurrency }, worker)));
    if (pendingLog.length > 0) await ops.logBatch(pendingLog.splice(0));
    const cutoff = new Date(Date.UTC(2100, 0, 1) + messages);
    const sweep = await measure(() => ops.purgeClaimsBefore(cutoff));
    if (sweep.value !== messages) throw new Error(`the sweep removed ${sweep.value} claims, not ${messages}`);
    const rssMb = process.memoryUsage().rss / 2 ** 20;
    await ops.close();
    return {
      candidate: name,
      messages: { ops: messages, wallMs: hot.wallMs, cpuMs: hot.cpuMs },
      sweep: { ops: sweep.value, wallMs: sweep.wallMs, cpuMs: sweep.cpuMs },
      rssMb,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function row(label: string, figures: PhaseFigures): string {
  const perSecond = Math.round(figures.ops / (figures.wallMs / 1000));
  const cpuMicros = ((figures.cpuMs * 1000) / figures.ops).toFixed(1);
  return `${label.padEnd(22)} ${String(figures.ops).padStart(8)} ${String(perSecond).padStart(10)}/s ${cpuMicros.padStart(8)} µs CPU each`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      messages: { type: 'string', default: '20000' },
      candidates: { type: 'string', default: 'nedb,lmdb,memlog' },
      'redelivery-every': { type: 'string', default: '20' },
    },
  });
  const messages = Number(values.messages);
  if (!Number.isInteger(messages) || messages < batchSize) throw new Error('--messages must be an integer ≥ 10');
  const redeliveryEvery = Number(values['redelivery-every']);
  if (!Number.isInteger(redeliveryEvery) || redeliveryEvery < 0)
    throw new Error('--redelivery-every must be an integer ≥ 0');
  const names = values.candidates.split(',').map((name) => {
    if (!(name in candidates))
      throw new Error(`unknown candidate ${name} (known: ${Object.keys(candidates).join(', ')})`);
    return name as CandidateName;
  });
  // one candidate per process would keep RSS apart; run `--candidates x` separately for RSS figures
  for (const name of names) {
    const result = await runCandidate(name, messages, redeliveryEvery);
    console.log(`${name}: RSS after the run ${result.rssMb.toFixed(0)} MB`);
    console.log(row('  messages', result.messages));
    console.log(row('  TTL sweep (claims)', result.sweep));
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
