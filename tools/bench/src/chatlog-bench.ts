import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import { createSilentLogger } from '@kickstand/platform/log';
import type { ChatMessagePayload } from '@kickstand/platform/socket-events';
import { createEmbeddedStore, DuplicateKeyError, type Document, type Store } from '@kickstand/platform/store';
import { chatLogLimit, createChatLog, createRealtimeRepository } from '@kickstand/realtime';
import { memoryAfterGc } from './heap';
import { rounded, summarize } from './stats';

/**
 * Realtime's chat log write path on the embedded store (issue 22 items 2, 3, 5): C channels each
 * filled with their newest N lines, then M more lines, written as realtime writes a chat line
 * either before (`--way collection`: a NeDB document per line in `chat-lines`, the user's lines
 * written in order through a keyed queue, trimmed to the newest 100 at the first write and every
 * 25th; the code of realtime before the recent log, copied here) or now (`--way recent-log`:
 * realtime's own chat log on `Store.recentLog`; `--way none`: the lines made and dropped, the
 * bench's own share of the figures). Reports CPU µs per line over the M lines
 * (process.cpuUsage, channels full: steady state) and the heap the log holds per line (heapUsed
 * after a full GC, minus before filling), then how long a restart takes until the lines are back
 * (the log replayed, or the datafile loaded), and how long the history of a channel (its newest 100
 * lines, what a dashboard gets when it joins) takes to read: `--reads` reads of random channels,
 * one at a time (µs p50/p99 and CPU per read). Usage (needs --expose-gc):
 *   node --expose-gc tools/bench/dist/chatlog-bench.js --way recent-log --channels 1000 --lines 100000
 */

interface LineWriter {
  append(userId: string, line: ChatMessagePayload, at: Date): void;
  flush(): Promise<void>;
  /** Lines the store holds now. */
  held(): Promise<number>;
  /** The channel's newest 100 lines, as a dashboard gets them when it joins. */
  history(userId: string): Promise<unknown[]>;
}

type ChatLineDoc = Document & { userId: string; at: Date; payload: ChatMessagePayload };

/** Realtime's chat log before the recent log (repository.ts + chat-log.ts at 23199aa). */
async function collectionWay(store: Store): Promise<LineWriter> {
  const lines = store.collection<ChatLineDoc>('chat-lines');
  await lines.createIndex({ fields: { userId: 1, at: -1 } });
  const newestFirst = { at: -1, _id: -1 } as const;
  const queue = createKeyedQueue();
  const sinceTrim = new Map<string, number>();
  const write = async (doc: ChatLineDoc) => {
    try {
      await lines.insertOne(doc);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const written = sinceTrim.get(doc.userId);
    if (written === undefined || written + 1 >= 25) {
      const overflow = await lines.find({ userId: doc.userId }, { sort: newestFirst, skip: chatLogLimit });
      if (overflow.length > 0) await lines.deleteMany({ _id: { $in: overflow.map((line) => line._id) } });
      sinceTrim.set(doc.userId, 0);
    } else {
      sinceTrim.set(doc.userId, written + 1);
    }
  };
  return {
    append: (userId, line, at) => void queue.run(userId, () => write({ _id: line.id, userId, at, payload: line })),
    flush: () => queue.idle(),
    held: () => lines.count(),
    history: (userId) => lines.find({ userId }, { sort: newestFirst, limit: chatLogLimit }),
  };
}

/** Keeps nothing: what making the lines costs. */
function noWay(): LineWriter {
  return {
    append: () => undefined,
    flush: () => Promise.resolve(),
    held: () => Promise.resolve(0),
    history: () => Promise.resolve([]),
  };
}

async function recentLogWay(store: Store, channels: number): Promise<LineWriter> {
  const repo = createRealtimeRepository(store);
  await repo.open();
  const chatLog = createChatLog({ repo, log: createSilentLogger() });
  return {
    append: (userId, line, at) => chatLog.append(userId, line, at),
    flush: () => chatLog.flush(),
    held: async () => {
      let held = 0;
      for (let c = 0; c < channels; c++) held += (await repo.recentLines(`user-${c}`, chatLogLimit)).length;
      return held;
    },
    history: (userId) => repo.recentLines(userId, chatLogLimit),
  };
}

const start = Date.UTC(2026, 0, 1);

/** A chat line as realtime makes it from chat.received (fresh strings, as a decoded bus message has). */
function chatLine(i: number): { line: ChatMessagePayload; at: Date } {
  const at = new Date(start + i * 10);
  const isSubscriber = i % 3 === 0;
  return {
    at,
    line: {
      id: randomUUID(),
      username: `viewer_${i % 5000}`,
      content: `message number ${i}: hello chat, how is everyone doing today? [emote:37226:KEKW]`,
      timestamp: at.toISOString(),
      replyTo: null,
      isModerator: false,
      isSubscriber,
      badges: isSubscriber ? [{ type: 'subscriber' }] : [],
      isBot: false,
    },
  };
}

/** Writes lines `from` … `to` - 1, round robin over the channels, `inFlight` at a time. */
async function writeLines(writer: LineWriter, from: number, to: number, channels: number): Promise<void> {
  const inFlight = 32; // as the bus hands realtime a batch of lines before it yields
  for (let first = from; first < to; first += inFlight) {
    for (let i = first; i < Math.min(first + inFlight, to); i++) {
      const { line, at } = chatLine(i);
      writer.append(`user-${i % channels}`, line, at);
    }
    await writer.flush();
  }
}

/** Reads `reads` channels' histories one after another, random channels: µs per read and CPU per read. */
async function timeReads(
  writer: LineWriter,
  reads: number,
  channels: number,
): Promise<{ historyMicros: ReturnType<typeof rounded>; historyCpuMicros: number; historyLines: number }> {
  const samples = new Float64Array(reads);
  let lines = 0;
  const cpuBefore = process.cpuUsage();
  for (let r = 0; r < reads; r++) {
    const userId = `user-${Math.floor(Math.random() * channels)}`;
    const startedAt = performance.now();
    lines += (await writer.history(userId)).length;
    samples[r] = (performance.now() - startedAt) * 1000;
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    historyMicros: rounded(summarize(samples), 0),
    historyCpuMicros: reads === 0 ? 0 : Math.round((cpu.user + cpu.system) / reads),
    historyLines: reads === 0 ? 0 : Math.round(lines / reads),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      way: { type: 'string', default: 'recent-log' },
      channels: { type: 'string', default: '1000' },
      lines: { type: 'string', default: '100000' },
      reads: { type: 'string', default: '5000' },
    },
  });
  const way = values.way;
  if (way !== 'recent-log' && way !== 'collection' && way !== 'none') {
    throw new Error('--way recent-log | collection | none');
  }
  const channels = Number(values.channels);
  const measured = Number(values.lines);
  const reads = Number(values.reads);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-chatlog-bench-'));
  const openWay = (store: Store) =>
    way === 'collection' ? collectionWay(store) : way === 'recent-log' ? recentLogWay(store, channels) : noWay();
  let store = await createEmbeddedStore({ dir, log: createSilentLogger() });
  try {
    const writer = await openWay(store);
    const before = memoryAfterGc();
    // every channel full: N lines each, and 25 more, so the collection's trims have run
    const fill = channels * (chatLogLimit + 25);
    await writeLines(writer, 0, fill, channels);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const cpuBefore = process.cpuUsage();
    await writeLines(writer, fill, fill + measured, channels);
    const cpu = process.cpuUsage(cpuBefore);
    delay.disable();
    const held = await writer.held();
    // a compaction the last lines began (recent log), or a sweep (collection), ends meanwhile
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = memoryAfterGc();
    const heldBytes = after.heapUsed - before.heapUsed;
    const heldExternal = after.external - before.external;
    const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
    const readMicros = await timeReads(writer, reads, channels);
    // a restart: the log replayed (recent log) or the datafile loaded (collection)
    await store.close();
    const startedAt = performance.now();
    store = await createEmbeddedStore({ dir, log: createSilentLogger() });
    const reopened = await openWay(store);
    const heldAfterRestart = await reopened.held();
    const restartMs = Math.round(performance.now() - startedAt);
    console.log(
      JSON.stringify({
        way,
        channels,
        linesHeld: held,
        heapBytesPerLineHeld: held === 0 ? 0 : Math.round(heldBytes / held),
        heapMbHeld: Math.round(heldBytes / 1024 / 1024),
        // Buffers and typed arrays (outside the V8 heap) the log holds
        externalBytesPerLineHeld: held === 0 ? 0 : Math.round(heldExternal / held),
        measuredLines: measured,
        cpuMicrosPerLine: Number(((cpu.user + cpu.system) / measured).toFixed(1)),
        // the longest the event loop was held while the M lines were written (a compaction, a GC)
        eventLoopDelayMaxMs: Number((delay.max / 1e6).toFixed(1)),
        rssMb,
        ...readMicros,
        restartMs,
        heldAfterRestart,
      }),
    );
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
