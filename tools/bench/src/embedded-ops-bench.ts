import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as StoreModule from '@kickstand/platform/store';

/**
 * The embedded store's hot single-document operations (docs/performance.md, "Hot operations of
 * the embedded store"): ops/s, CPU µs and GC ms per 1,000 ops of each, on a collection of
 * `--docs` documents with four indexes as the services' collections have them: _id, channelId
 * (100 documents a key), name (unique) and lastUsedAt (a Date, as the expiry fields); 16 operations in flight.
 * `--platform <build>/packages/platform/dist/store/index.js` loads another build's store, for a
 * before/after; run the two alternately.
 *
 *   npm run bench:embedded-ops [-- --docs 10000 --ops 20000 --platform … --only findOneById,insertOne]
 *   npm run bench:embedded-ops -- --case serialize   (the journal's line: NeDB's serialiser vs this build's)
 */

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: 'ops' },
    docs: { type: 'string', default: '10000' },
    ops: { type: 'string', default: '20000' },
    platform: { type: 'string' },
    /** Comma-separated names of the operations to run (all by default), e.g. for a profile of one. */
    only: { type: 'string' },
  },
});

const inFlight = 16;

interface Count {
  _id: string;
  channelId: string;
  name: string;
  count: number;
  hours: Record<string, number>;
  lastUsedAt: Date;
  lastEventId: string;
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

interface Figures {
  opsPerSecond: number;
  cpuMicrosPerOp: number;
  gcMsPer1000Ops: number;
}

/** Runs `op(i)` for i in [0, count), `inFlight` at a time. */
async function measure(count: number, op: (i: number) => Promise<unknown>): Promise<Figures> {
  const cpuStart = process.cpuUsage();
  const gcStart = gcMs;
  const start = performance.now();
  for (let i = 0; i < count; i += inFlight) {
    await Promise.all(Array.from({ length: Math.min(inFlight, count - i) }, (_, k) => op(i + k)));
  }
  const elapsedMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return {
    opsPerSecond: Math.round((count / elapsedMs) * 1000),
    cpuMicrosPerOp: Math.round(((cpu.user + cpu.system) / count) * 10) / 10,
    gcMsPer1000Ops: Math.round(((gcMs - gcStart) / count) * 1000 * 100) / 100,
  };
}

const channels = 100;
const countDoc = (i: number): Count => ({
  _id: `count-${i}`,
  channelId: `channel-${i % channels}`,
  name: `command-${i}`,
  count: i,
  hours: { h1: 1, h2: 2, h3: 3 },
  lastUsedAt: new Date(Date.UTC(2026, 10, 1) + i),
  lastEventId: `event-${i}`,
});

async function ops(): Promise<Record<string, unknown>> {
  const storePath = values.platform ? pathToFileURL(values.platform).href : '@kickstand/platform/store';
  const storeModule = (await import(storePath)) as typeof StoreModule;
  const docs = Number(values.docs);
  const count = Number(values.ops);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-embedded-ops-bench-'));
  try {
    const store = await storeModule.createEmbeddedStore({ dir, sweepIntervalMs: 3_600_000 });
    const counts = store.collection<Count>('counts');
    await counts.createIndex({ fields: { channelId: 1 } });
    await counts.createIndex({ fields: { name: 1 }, unique: true });
    await counts.createIndex({ fields: { lastUsedAt: 1 } });
    for (let i = 0; i < docs; i += 1) await counts.insertOne(countDoc(i));
    // a reproducible walk over the documents (a multiplier prime to `docs`)
    const someDoc = (i: number) => (i * 7919) % docs;
    const results: Record<string, Figures> = {};
    const only = values.only?.split(',');
    const run = async (name: string, op: (i: number) => Promise<unknown>) => {
      if (!only || only.includes(name)) results[name] = await measure(count, op);
    };
    await run('findOneById', (i) => counts.findOne({ _id: `count-${someDoc(i)}` }));
    await run('findOneAndUpdateIncUpsert', (i) => {
      const n = someDoc(i);
      return counts.findOneAndUpdate(
        { _id: `count-${n}`, lastEventId: { $ne: `event-x${i}` } },
        {
          $inc: { count: 1, 'hours.h2': 1 },
          $max: { lastUsedAt: new Date(Date.UTC(2026, 10, 2) + i) },
          $setOnInsert: { channelId: `channel-${n % channels}`, name: `command-${n}` },
        },
        { upsert: true, returnDocument: 'after' },
      );
    });
    await run('updateOneNoMatch', (i) =>
      counts.updateOne({ _id: `count-${someDoc(i)}`, lastEventId: 'no such event' }, { $set: { count: 0 } }),
    );
    await run('updateOneIndexedFieldChanged', (i) =>
      counts.updateOne(
        { _id: `count-${someDoc(i)}` },
        { $set: { channelId: `channel-${(i + 1) % channels}-moved${i}` } },
      ),
    );
    await run('upsertNew', (i) =>
      counts.findOneAndUpdate(
        { _id: `new-${i}` },
        { $inc: { count: 1 }, $setOnInsert: { channelId: `channel-${i % channels}`, name: `new-${i}` } },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    await run('insertOne', (i) => counts.insertOne({ ...countDoc(docs + i), _id: `insert-${i}`, name: `insert-${i}` }));
    await store.close();
    return { case: 'ops', platform: values.platform ?? 'this checkout', docs, ops: count, ...results };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The journal's line of each of `--docs` documents: NeDB's model.serialize, then this build's serialiser, 5 times alternately. */
function serialize(): Record<string, unknown> {
  const storeIndex = createRequire(__filename).resolve('@kickstand/platform/store');
  const serializerFile = path.join(path.dirname(storeIndex), 'nedb-serialize.js');
  if (!existsSync(serializerFile)) throw new Error(`${serializerFile} is missing: build this checkout first`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a build's file, by path
  const { serializeNedbLine } = require(serializerFile) as { serializeNedbLine(doc: unknown): string };
  // NeDB as the platform resolves it
  const nedbModel = createRequire(storeIndex)('@seald-io/nedb/lib/model.js') as { serialize(doc: unknown): string };
  const docs = Array.from({ length: Number(values.docs) }, (_, i) => countDoc(i));
  const rounds: Record<string, number[]> = { nedb: [], thisBuild: [] };
  let length = 0;
  for (let round = 0; round < 5; round += 1) {
    for (const [name, serializer] of [
      ['nedb', nedbModel.serialize],
      ['thisBuild', serializeNedbLine],
    ] as const) {
      const start = process.cpuUsage();
      for (const doc of docs) length += serializer(doc).length;
      const used = process.cpuUsage(start);
      rounds[name]?.push(Math.round(((used.user + used.system) / docs.length) * 100) / 100);
    }
  }
  return { case: 'serialize', docs: docs.length, cpuMicrosPerDoc: rounds, checksum: length };
}

async function main(): Promise<void> {
  const result = values.case === 'serialize' ? serialize() : await ops();
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
