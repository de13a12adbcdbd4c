import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { MessageChannel, Worker } from 'node:worker_threads';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import type * as StoreModule from '@kickstand/platform/store';
import { summarize } from './stats';

/**
 * The reply path's serial queues, alone (docs/performance.md, "Where the reply latency goes"):
 * a sender thread hands chat events to this thread in batches over a MessagePort at `--rate` a
 * second, as the front door does; each event costs `--work-us` of synchronous work here (the
 * fan-out's handlers) and one claim in a claim set (the webhook claim), and as many messages on a second
 * port cost `--other-us` each in callbacks of their own (the owner's other I/O in the same turn:
 * Kick's answers, dashboards, the proxy); a `--command-share` of the events are
 * commands, which go through two serial queues of `--partitions` partitions each, as on the
 * in-process bus: an awaited count `$inc` (bot-runner's group), then an awaited claim insert
 * (kick-link's chat.send group). Reports the command latency (event handed over → both writes
 * done) and CPU per event. `--platform <build>/packages/platform/dist/store/index.js` loads another
 * build's embedded store (main's: a write resolves on the next turn of the event loop).
 *
 *   npm run bench:partition -- [--rate 1000] [--seconds 15] [--work-us 150] [--other-us 150] [--platform …]
 */

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '15' },
    'work-us': { type: 'string', default: '150' },
    'other-us': { type: 'string', default: '150' },
    'command-share': { type: 'string', default: '0.2' },
    partitions: { type: 'string', default: '12' },
    channels: { type: 'string', default: '1000' },
    platform: { type: 'string' },
  },
});

const rate = Number(values.rate);
const seconds = Number(values.seconds);
const workUs = Number(values['work-us']);
const otherUs = Number(values['other-us']);
const commandShare = Number(values['command-share']);
const partitions = Number(values.partitions);
const channels = Number(values.channels);

/** The sender: every millisecond, the events due since the last batch, stamped with when they were due. */
const senderSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { rate, seconds, other } = workerData;
const start = performance.timeOrigin + performance.now();
let sent = 0;
const total = rate * seconds;
const tick = () => {
  const now = performance.timeOrigin + performance.now();
  const due = Math.min(total, Math.floor(((now - start) / 1000) * rate));
  if (due > sent) {
    const at = [];
    for (; sent < due; sent++) at.push(start + (sent * 1000) / rate);
    parentPort.postMessage(at);
    for (let i = 0; i < at.length; i++) other.postMessage(0);
  }
  if (sent < total) setTimeout(tick, 1);
  else parentPort.postMessage('end');
};
tick();
`;

function burn(us: number): void {
  const until = performance.now() + us / 1000;
  while (performance.now() < until) {
    // the fan-out's synchronous work
  }
}

async function main(): Promise<void> {
  const storeModule = (await import(
    values.platform ? pathToFileURL(values.platform).href : '@kickstand/platform/store'
  )) as typeof StoreModule;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-partition-bench-'));
  const store = await storeModule.createEmbeddedStore({ dir, sweepIntervalMs: 0 });
  try {
    // the webhook claims are a claim set, as kick-link's are; the count and the send claim documents
    const claims = store.claimSet('webhook-claims', { expireAfterSeconds: 600, dateField: 'receivedAt' });
    await claims.open();
    const counts = store.collection<{ _id: string; count: number }>('command-counts');
    const sendClaims = store.collection<{ _id: string; at: number }>('send-claims');
    await Promise.all([counts.insertOne({ _id: 'open', count: 0 }), sendClaims.insertOne({ _id: 'open', at: 0 })]);
    const botRunner = createKeyedQueue();
    const kickLink = createKeyedQueue();
    const latencies: number[] = [];
    let events = 0;
    let seed = 1;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    const pending = new Set<Promise<void>>();
    await new Promise<void>((resolve, reject) => {
      const { port1: otherIo, port2: otherIoSender } = new MessageChannel();
      otherIo.on('message', () => burn(otherUs));
      const sender = new Worker(senderSource, {
        eval: true,
        workerData: { rate, seconds, other: otherIoSender },
        transferList: [otherIoSender],
      });
      sender.on('error', reject);
      sender.on('message', (batch: number[] | 'end') => {
        if (batch === 'end') {
          otherIo.close();
          void sender.terminate().then(() => resolve());
          return;
        }
        for (const at of batch) {
          const id = events++;
          burn(workUs);
          const claim = claims.claim(`m${id}`, new Date(at)).then(() => undefined);
          pending.add(claim);
          void claim.finally(() => pending.delete(claim));
          if (random() >= commandShare) continue;
          const channel = Math.floor(random() * channels);
          const partition = String(channel % partitions);
          const reply = botRunner
            .run(partition, () =>
              counts.findOneAndUpdate(
                { _id: `c${channel}` },
                { $inc: { count: 1 } },
                { upsert: true, returnDocument: 'after' },
              ),
            )
            .then(() => kickLink.run(partition, () => sendClaims.insertOne({ _id: `r${id}`, at })))
            .then(() => {
              latencies.push(performance.timeOrigin + performance.now() - at);
            });
          pending.add(reply);
          void reply.finally(() => pending.delete(reply));
        }
      });
    });
    while (pending.size > 0) await Promise.all([...pending]);
    const cpu = process.cpuUsage(cpuStart);
    const wallMs = performance.now() - wallStart;
    const summary = summarize(latencies);
    const round = (value: number) => Number(value.toFixed(2));
    console.log(
      JSON.stringify(
        {
          store: values.platform ?? 'this checkout',
          rate,
          seconds,
          workUs,
          otherUs,
          events,
          commands: summary.count,
          commandLatencyMs: {
            p50: round(summary.p50),
            p95: round(summary.p95),
            p99: round(summary.p99),
            max: round(summary.max),
            mean: round(summary.mean),
          },
          cpuMsPerEvent: round((cpu.user + cpu.system) / 1000 / Math.max(1, events)),
          busyShare: round((cpu.user + cpu.system) / 1000 / wallMs),
        },
        null,
        1,
      ),
    );
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
