import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbeddedStore, DuplicateKeyError, type Document } from '@kickstand/platform/store';
import { createUlidSource } from './kick-delivery';
import { heapAfterGc } from './heap';

/**
 * The webhook claims' memory (issue 22 item 5): N claims (Kick message ids, ULIDs) taken on the
 * embedded store, as kick-link took them before (one document each in a collection with a TTL
 * index, `--way documents`) or takes them now (`Store.claimSet`, `--way claim-set`). Reports the
 * heap the claims hold (heapUsed after a full GC, minus before) per claim, CPU µs per claim
 * (process.cpuUsage), the typed arrays' memory per claim (outside the heap), RSS, and the time of one
 * full collection with the claims held. `--record
 * sent-message`: kick-link's sent chat message ids instead (a UUID each; as documents `{ _id,
 * broadcasterUserId, sentAt }` as before, or the claim set of now); `--record send-key`: its send
 * keys (`reply:<uuid>`).
 * Usage (needs --expose-gc):
 *   node --expose-gc tools/bench/dist/claims-bench.js --way claim-set --claims 200000 [--record sent-message]
 */

interface ClaimWay {
  claim(id: string, at: Date): Promise<boolean>;
  close(): Promise<void>;
}

/** What is claimed: its collection, its date field, and the other fields its document kept. */
interface RecordShape {
  name: string;
  dateField: string;
  fields: Record<string, string>;
  newId: () => string;
}

const ulid = createUlidSource();
const shapes: Record<string, RecordShape> = {
  webhook: { name: 'webhook-messages', dateField: 'receivedAt', fields: {}, newId: () => ulid(Date.now()) },
  'send-key': {
    name: 'chat-send-keys',
    dateField: 'claimedAt',
    fields: {},
    newId: () => `reply:${randomUUID()}`,
  },
  'sent-message': {
    name: 'sent-chat-messages',
    dateField: 'sentAt',
    fields: { broadcasterUserId: '4377088' },
    newId: () => randomUUID(),
  },
};

async function open(way: string, dir: string, shape: RecordShape): Promise<ClaimWay> {
  const store = await createEmbeddedStore({ dir });
  if (way === 'claim-set') {
    const claims = store.claimSet(shape.name, { expireAfterSeconds: 600, dateField: shape.dateField });
    await claims.open();
    return { claim: (id, at) => claims.claim(id, at), close: () => store.close() };
  }
  const docs = store.collection<Document>(shape.name);
  await docs.createIndex({ fields: { [shape.dateField]: 1 }, expireAfterSeconds: 600 });
  return {
    async claim(id, at) {
      try {
        await docs.insertOne({ _id: id, ...shape.fields, [shape.dateField]: at });
        return true;
      } catch (error) {
        if (error instanceof DuplicateKeyError) return false;
        throw error;
      }
    },
    close: () => store.close(),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      way: { type: 'string', default: 'claim-set' },
      claims: { type: 'string', default: '200000' },
      record: { type: 'string', default: 'webhook' },
    },
  });
  const way = values.way;
  const count = Number(values.claims);
  const shape = shapes[values.record];
  if (way !== 'claim-set' && way !== 'documents') throw new Error('--way claim-set | documents');
  if (!shape) throw new Error('--record webhook | send-key | sent-message');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-claims-bench-'));
  const claims = await open(way, dir, shape);
  await claims.claim('warm-up', new Date());
  const heapBefore = heapAfterGc();
  const arrayBuffersBefore = process.memoryUsage().arrayBuffers;
  const cpuBefore = process.cpuUsage();
  // 32 in flight, as concurrent deliveries are
  for (let start = 0; start < count; start += 32) {
    // made here, so the ids' strings count as what the claims hold
    const batch = Array.from({ length: Math.min(32, count - start) }, shape.newId);
    await Promise.all(batch.map((id) => claims.claim(id, new Date())));
  }
  const cpu = process.cpuUsage(cpuBefore);
  const heldBytes = heapAfterGc() - heapBefore;
  // typed arrays' memory is outside the V8 heap (the claim table keeps its claims there)
  const arrayBufferBytes = process.memoryUsage().arrayBuffers - arrayBuffersBefore;
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  // what a full collection costs with the claims held (it marks whatever they keep on the heap)
  const gcStart = performance.now();
  heapAfterGc();
  const fullGcMs = (performance.now() - gcStart) / 2;
  console.log(
    JSON.stringify({
      way,
      record: values.record,
      claims: count,
      heapBytesPerClaim: Math.round(heldBytes / count),
      arrayBufferBytesPerClaim: Math.round(arrayBufferBytes / count),
      cpuMicrosPerClaim: Number(((cpu.user + cpu.system) / count).toFixed(1)),
      rssMb: Math.round(rssMb),
      fullGcMs: Number(fullGcMs.toFixed(1)),
    }),
  );
  await claims.close();
  await rm(dir, { recursive: true, force: true });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
