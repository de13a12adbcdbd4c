import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as ChatSenderModule from '@kickstand/kick-link/chat-sender';
import type * as StoreModule from '@kickstand/platform/store';

/**
 * Two owner-thread costs of a command's reply (docs/performance.md, "Store writes per command"),
 * CPU per operation (process.cpuUsage), for a before/after with another build:
 *
 * `--case shared-key`: the embedded store with N send-claim-like documents that all share one
 * value of an indexed field (kick-link's claim `state`), then (a) an update of each of the first
 * half, (b) an insert of a new one followed by its update, 16 in flight; NeDB re-indexes a document
 * in every index on each update, and removing it from a key shared by many was a copy of the key's
 * array. `--platform <build>/packages/platform/dist/store/index.js` loads another build's store.
 *
 * `--case echo`: kick-link's OwnLines (the echo check) at 1,000 viewer lines a second and 200
 * replies a second over 1,000 channels, on a fake clock for `--seconds`: CPU per viewer line (the
 * posts included), and how many echoes under another id, 59 s after their post, are recognised.
 * `--kick-link <build>/services/kick-link/dist` loads another build's chat-sender.
 *
 *   npm run bench:store-writes -- --case shared-key [--docs 60000] [--platform …]
 *   npm run bench:store-writes -- --case echo [--seconds 120] [--kick-link …]
 */

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: 'shared-key' },
    docs: { type: 'string', default: '60000' },
    seconds: { type: 'string', default: '120' },
    platform: { type: 'string' },
    'kick-link': { type: 'string' },
  },
});

const inFlight = 16;

function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

/** Runs `op(i)` for i in [from, to), `inFlight` at a time; CPU µs per op. */
async function perOp(from: number, to: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = from; i < to; i += inFlight) {
    await Promise.all(Array.from({ length: Math.min(inFlight, to - i) }, (_, k) => op(i + k)));
  }
  return Math.round((cpuMicros(start) / (to - from)) * 10) / 10;
}

async function sharedKey(): Promise<Record<string, unknown>> {
  const storeModule = (await import(
    values.platform ? pathToFileURL(values.platform).href : '@kickstand/platform/store'
  )) as typeof StoreModule;
  const docs = Number(values.docs);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-store-writes-bench-'));
  try {
    const store = await storeModule.createEmbeddedStore({ dir, sweepIntervalMs: 3_600_000 });
    type Claim = { _id: string; claimedAt: Date; state: string; isPublished: boolean };
    const claims = store.collection<Claim>('chat-send-claims');
    // kick-link's indexes on its send claims (repository.ts)
    await claims.createIndex({ fields: { claimedAt: 1 }, expireAfterSeconds: 2 * 24 * 3600 });
    await claims.createIndex({ fields: { state: 1, claimedAt: 1 } });
    const claim = (id: string): Claim => ({ _id: id, claimedAt: new Date(), state: 'posting', isPublished: false });
    const insertMicros = await perOp(0, docs, (i) => claims.insertOne(claim(`old-${i}`)));
    const updateMicros = await perOp(0, docs / 2, (i) =>
      claims.updateOne({ _id: `old-${i}` }, { $set: { isPublished: true } }),
    );
    const insertThenUpdateMicros = await perOp(0, docs / 2, async (i) => {
      await claims.insertOne(claim(`new-${i}`));
      await claims.updateOne({ _id: `new-${i}` }, { $set: { isPublished: true } });
    });
    await store.close();
    return {
      case: 'shared-key',
      platform: values.platform ?? 'this checkout',
      docs,
      insertMicros,
      updateMicros,
      insertThenUpdateMicros,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function echo(): Promise<Record<string, unknown>> {
  const chatSender = (await import(
    values['kick-link']
      ? pathToFileURL(path.join(values['kick-link'], 'chat-sender.js')).href
      : '@kickstand/kick-link/chat-sender'
  )) as typeof ChatSenderModule;
  let nowMs = Date.UTC(2026, 5, 1, 12);
  const clock = { now: () => new Date(nowMs) };
  const repo = { sentMessages: { exists: async () => false } } as unknown as Parameters<
    typeof chatSender.createOwnLines
  >[0]['repo'];
  const botAccounts = { current: async () => null, knownKickUserId: async () => null, changed: () => undefined };
  const ownLines = chatSender.createOwnLines({ repo, clock, botAccounts, botUsername: undefined });
  const seconds = Number(values.seconds);
  let lateAsked = 0;
  let lateFound = 0;
  let viewerLines = 0;
  const start = process.cpuUsage();
  for (let ms = 0; ms < seconds * 1000; ms += 1) {
    nowMs += 1;
    // a reply every 5 ms (200 a second), in channel n % 1000
    if (ms % 5 === 0) {
      const n = ms / 5;
      const handle = ownLines.sending(String(n % 1000), `reply number ${n}`);
      ownLines.sent(`posted-${n}`, handle);
      ownLines.settled(handle);
    }
    await ownLines.isOwn({
      broadcasterUserId: String(ms % 1000),
      messageId: `viewer-line-${ms}`,
      content: `viewer line ${ms}`,
      senderUserId: `viewer-${ms % 10_000}`,
      senderUsername: `viewer_${ms % 10_000}`,
    });
    viewerLines += 1;
    if (ms >= 60_000 && ms % 100 === 0) {
      // the echo, under another id and from the channel, of the reply posted 59 s ago
      const n = (ms - 59_000) / 5;
      lateAsked += 1;
      const isOwn = await ownLines.isOwn({
        broadcasterUserId: String(n % 1000),
        messageId: `other-id-${n}`,
        content: `reply number ${n}`,
        senderUserId: String(n % 1000),
        senderUsername: 'streamer',
      });
      if (isOwn) lateFound += 1;
    }
  }
  return {
    case: 'echo',
    kickLink: values['kick-link'] ?? 'this checkout',
    viewerLines,
    cpuMicrosPerViewerLine: Math.round((cpuMicros(start) / viewerLines) * 100) / 100,
    echoesAfter59sRecognised: `${lateFound}/${lateAsked}`,
  };
}

async function main(): Promise<void> {
  const result = values.case === 'echo' ? await echo() : await sharedKey();
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
