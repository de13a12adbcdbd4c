import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Document, Store } from '@kickstand/platform/store';

/**
 * How long the embedded store's periodic compaction holds the event loop (issue 22, "Periodic
 * stalls"): a chat-log-like collection of N documents (shaped like realtime's former `chat-lines` collection,
 * up to 125,000; the chat log itself is a `Store.recentLog` now, but any collection compacts alike),
 * reopened, then chat lines written (10 a millisecond, inserts only) until the sweep has compacted
 * the datafile. Reports the longest event-loop block (perf_hooks.monitorEventLoopDelay, 1 ms
 * resolution) and the slowest write over that window, which ends when the new datafile is in place;
 * then the longest block while close() compacts once more with nothing beside it (no GC of a
 * heap growing by 10 inserts a millisecond in that figure). Usage: npm run bench:compaction -- [--docs 125000]
 * [--platform /work/main/packages/platform/dist/store/index.js] (another build's store, for a before/after)
 */

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '125000' },
    platform: { type: 'string' },
  },
});
const docCount = Number(values.docs);
const sweepIntervalMs = 1000;
const writesPerTick = 10;

type ChatLine = Document & { userId: string; at: Date; payload: Record<string, unknown> };

function chatLine(i: number): ChatLine {
  const id = randomUUID();
  const at = new Date(Date.UTC(2026, 0, 1) + i * 10);
  return {
    _id: id,
    userId: `user-${i % 1000}`,
    at,
    payload: {
      id,
      username: `viewer_${i % 5000}`,
      content: `message number ${i}: hello chat, how is everyone doing today? [emote:37226:KEKW]`,
      timestamp: at.toISOString(),
      replyTo: null,
      isModerator: false,
      isSubscriber: i % 3 === 0,
      badges: i % 3 === 0 ? [{ type: 'subscriber', text: 'Subscriber', count: 3 }] : [],
      isBot: false,
    },
  };
}

async function main(): Promise<void> {
  const storeModule = (await import(
    values.platform ? pathToFileURL(values.platform).href : '@kickstand/platform/store'
  )) as typeof import('@kickstand/platform/store');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-compaction-bench-'));
  try {
    // the collection as a restart finds it: written, then compacted on close
    const filling: Store = await storeModule.createEmbeddedStore({ dir, sweepIntervalMs: 3_600_000 });
    const filled = filling.collection<ChatLine>('chat-lines');
    await filled.createIndex({ fields: { userId: 1, at: -1 } });
    for (let i = 0; i < docCount; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, docCount - i) }, (_, k) => chatLine(i + k));
      await Promise.all(batch.map((line) => filled.insertOne(line)));
    }
    await filling.close();

    // reopened (NeDB loads and rewrites the file), then chat goes on at writesPerTick lines a
    // millisecond: once as many lines as documents were appended, the next sweep compacts
    const store: Store = await storeModule.createEmbeddedStore({ dir, sweepIntervalMs });
    const lines = store.collection<ChatLine>('chat-lines');
    await lines.count();
    const datafile = path.join(dir, 'chat-lines.db');
    const { ino: inodeBefore } = await stat(datafile);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    let slowestWriteMs = 0;
    let writes = 0;
    let next = docCount;
    const writer = setInterval(() => {
      for (let k = 0; k < writesPerTick; k += 1) {
        const started = performance.now();
        void lines.insertOne(chatLine(next++)).then(() => {
          writes += 1;
          slowestWriteMs = Math.max(slowestWriteMs, performance.now() - started);
        });
      }
    }, 1);
    const started = performance.now();
    while ((await stat(datafile)).ino === inodeBefore) await new Promise((resolve) => setTimeout(resolve, 5));
    const windowMs = performance.now() - started;
    clearInterval(writer);
    delay.disable();
    const fileMb = (await stat(datafile)).size / 1e6;
    // the compaction alone: close() rewrites the file once more, with no writes beside it
    const closing = monitorEventLoopDelay({ resolution: 1 });
    const closeStarted = performance.now();
    closing.enable();
    await store.close();
    closing.disable();
    const closeMs = performance.now() - closeStarted;
    console.log(
      JSON.stringify({
        build: values.platform ?? 'this worktree',
        docs: docCount,
        datafileMbAfter: Number(fileMb.toFixed(1)),
        windowMs: Math.round(windowMs),
        longestEventLoopBlockMs: Math.round(delay.max / 1e6),
        eventLoopDelayP99Ms: Math.round(delay.percentile(99) / 1e6),
        writesDuringWindow: writes,
        slowestWriteMs: Math.round(slowestWriteMs),
        closeMs: Math.round(closeMs),
        longestBlockOnCloseMs: Math.round(closing.max / 1e6),
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
