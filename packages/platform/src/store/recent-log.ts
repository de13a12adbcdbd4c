import { existsSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import type { Logger } from '../log/logger';
import { privateFileMode, syncDir } from '../files';
import {
  createRecentMemory,
  emptyEntries,
  type Entries,
  type Moved,
  type RecentMemory,
  type Snapshot,
} from './recent-memory';
import { createSegmentFiles, type SegmentFiles } from './segment-files';
import type { RecentEntry, RecentItem, RecentLog } from './store';

export interface RecentLogOptions {
  /** The folder of the log's segment files (the embedded store uses `<its dir>/<name>.recent`). */
  dir: string;
  keepPerKey: number;
  log: Logger;
  /**
   * The datafile an earlier version kept these entries in as store documents (`{ _id, [keyField],
   * [atField], ...entry }`): imported on open (each key's newest `keepPerKey`), then deleted.
   */
  former?: { datafile: string; keyField: string; atField: string };
  /**
   * A compaction begins once this many lines were appended since the last one, and at least as many
   * as memory holds; 10,000 by default.
   */
  minLinesBeforeCompaction?: number;
  /** Runs just before a compaction's file becomes a segment (tests stop there, as a crash would). */
  beforeCompactionRename?: () => Promise<void>;
  /** Runs once a compaction has deleted the segments it replaced (tests wait for it). */
  afterCompaction?: () => void;
}

/**
 * Lines written at a time while compacting, their texts read back meanwhile (pread(2) from the page
 * cache, a few µs each): ~1 ms of the thread, then a turn while the chunk is written. 500 lines
 * took 2–5 ms on a quiet machine (docs/performance.md, "The owner's long tasks, second round").
 */
const compactionChunkLines = 200;
/**
 * Entries pointed at their new place between two yields to the event loop at a compaction's end:
 * 10,000 took 1–10 ms (a walk of each key's entries, ~100 keys).
 */
const relocateChunkEntries = 2_000;

/**
 * The embedded store's recent log: each key's newest entries indexed in memory, their text on disk.
 * A NeDB document per chat line cost ~830 bytes of heap and ~45 µs of CPU with the trims; keeping
 * each line's JSON text on the heap ~430 bytes; here a held entry is its id, its id's hash, its
 * date and where its text is (segment, byte offset, byte length), ~110 bytes of which ~30 in typed
 * arrays (recent-memory.ts; `npm run bench:chatlog`, docs/performance.md).
 *
 * The log: one line per entry appended, `[<key>,<id>,<at ms>,<entry>]` as JSON, in groups: the
 * lines of one turn of the event loop go out with one write(2) at the end of the task, and each
 * append resolves once its line is written (segment-files.ts, shared with the claim log). Until then
 * memory holds the entry's text; the write tells where the line went and the text is dropped.
 * `recent` reads the texts back with pread(2), synchronously: the lines were written lately, so they
 * are in the page cache (a few µs a line), and no read is ever in flight while a compaction swaps
 * segments. A compaction reads the texts the same way, a chunk of lines a turn (reading them in
 * the thread pool cost 3–4 times the CPU: a read each, the texts of a key ~1,000 lines apart), and
 * deletes the segments it replaced in the thread pool (an unlink of tens of MB blocked 13–16 ms).
 * Entries pushed out of memory by newer ones stay in the log until a compaction: once the
 * lines appended since the last one outnumber the entries held (and at least
 * `minLinesBeforeCompaction`), the current segment is closed, the held entries are written (in
 * chunks, their texts read from the older segments, the appends going on into a new segment) to a
 * temporary file that then takes its place in the order of segments; the held entries are pointed
 * at their lines there, and only then are the older segments deleted. Replaying applies every
 * segment in order, noting where each line's entry is; a line seen before is a no-op, so a crash at
 * any point of a compaction replays to the same entries. A line cut short by a crash is skipped.
 */
export function createRecentLog<E extends RecentEntry>(
  options: RecentLogOptions,
): RecentLog<E> & { close(): Promise<void> } {
  const memory = createRecentMemory(options.keepPerKey);
  const files = createRecentSegments(options, memory);
  let opening: Promise<void> | undefined;
  let isOpen = false;
  let isClosed = false;

  async function replay(): Promise<void> {
    await files.replay();
    if (options.former && existsSync(options.former.datafile)) {
      await importFormer(options.former, memory, options.log);
      // written out before the old datafile goes: a crash in between imports it again (a no-op)
      await files.compact();
      rmSync(options.former.datafile, { force: true });
    }
    isOpen = true;
  }

  async function ready(): Promise<void> {
    if (isClosed) throw new Error('the recent log is closed');
    if (!opening) throw new Error('the recent log is not open (open() first)');
    await opening;
  }

  /** The held entries as items, their texts read from disk where they are. */
  function itemsOf(held: Entries): Array<RecentItem<E>> {
    files.readTexts(held);
    const items: Array<RecentItem<E>> = [];
    for (let i = 0; i < held.ids.length; i++) {
      items.push({
        id: held.ids[i] as string,
        at: new Date(held.ats[i] as number),
        entry: JSON.parse(held.texts[i] as string) as E,
      });
    }
    return items;
  }

  return {
    open() {
      opening ??= replay();
      return opening;
    },
    async append(key, id, at, entry) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the recent log is closed');
      const atMs = at.getTime();
      const entryJson = JSON.stringify(entry);
      const pending = memory.insertPending(key, id, atMs, entryJson);
      if (typeof pending === 'number') {
        await files.append(key, id, atMs, entryJson, pending);
        return true;
      }
      // the entry held already may still be on its way to the disk
      await files.written();
      // one older than a full key's is dropped at once: as MongoDB's trim would, later
      return pending === 'older';
    },
    async recent(key, limit) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the recent log is closed');
      return itemsOf(memory.recent(key, limit));
    },
    async range(key, from, to) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the recent log is closed');
      return itemsOf(memory.between(key, from.getTime(), to.getTime()));
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      await opening?.catch(() => undefined);
      await files.close();
    },
  };
}

/** A line's text up to its entry: `[<key>,<id>,<at ms>,`. */
const linePrefix = (key: string, id: string, atMs: number): string =>
  `[${JSON.stringify(key)},${JSON.stringify(id)},${atMs},`;

/** The log's segment files, cut by compactions. */
interface RecentSegments {
  /** Applies every segment to memory, oldest first (at open, before any append). */
  replay(): Promise<void>;
  /**
   * Writes the line of the entry memory numbered `pending`; resolves once it is written (memory is
   * told where its text went).
   */
  append(key: string, id: string, atMs: number, entryJson: string, pending: number): Promise<void>;
  /** Resolves once the lines appended so far are written. */
  written(): Promise<void>;
  /** Fills in `entries.texts` where they are on disk. */
  readTexts(entries: Entries): void;
  /** Writes memory as a segment of its own and deletes the ones before it. */
  compact(): Promise<void>;
  /** Waits for a running compaction, writes what is buffered and closes the file. */
  close(): Promise<void>;
}

const compactionFile = 'compaction.tmp';
/** Texts at most this far apart in a segment are read with one pread (the bytes between are read too). */
const readGapBytes = 4096;
/** …up to this many bytes a read. */
const readSpanBytes = 64 * 1024;

function createRecentSegments(options: RecentLogOptions, memory: RecentMemory): RecentSegments {
  const { dir, log } = options;
  const minLines = options.minLinesBeforeCompaction ?? 10_000;
  let linesSinceCompaction = 0;
  let compacting: Promise<void> | undefined;
  let isClosing = false;
  const files = createSegmentFiles({
    dir,
    label: 'recent log',
    log,
    afterWrite() {
      if (compacting || isClosing || linesSinceCompaction < Math.max(minLines, memory.size())) return;
      void startCompaction().catch((err: unknown) => log.error({ err, dir }, 'could not compact the recent log'));
    },
  });
  const readPlaced = createTextReader(files);

  /** One compaction at a time; a failed one leaves the segments as they were (it is tried again later). */
  function startCompaction(): Promise<void> {
    compacting ??= compact().finally(() => {
      compacting = undefined;
    });
    return compacting;
  }

  async function compact(): Promise<void> {
    // what was written so far is in the sealed segments; appends from now on go to the ones after `seq`
    files.sealCurrent();
    const { seq, file } = files.reserve();
    linesSinceCompaction = 0;
    const temp = path.join(dir, compactionFile);
    const snapshot = memory.snapshot();
    const moved = await writeSnapshot(temp, snapshot, readPlaced);
    await options.beforeCompactionRename?.();
    await rename(temp, file);
    // the rename made durable before the segments it replaces go (their deletion could outlast it)
    await syncDir(dir);
    // then no held entry points at the older segments: each is in the new one, or a newer one
    // (reads in between find the older segments still there)
    await relocateAll(memory, snapshot, seq, moved);
    const deletions = deleteReplaced(memory, files, seq, (segment) =>
      log.error({ dir, segment }, 'a recent log segment is still in use after its compaction'),
    );
    files.addSealed(seq);
    await deletions;
    options.afterCompaction?.();
  }

  return {
    async replay() {
      rmSync(path.join(dir, compactionFile), { force: true }); // a compaction a crash cut short
      await files.open(parseLine, (line, seq, offset, bytes) => {
        // the entry is the rest of the line but its closing ']'
        const length = bytes - line.prefixBytes - 1;
        memory.insertPlaced(line.key, line.id, line.atMs, seq, offset + line.prefixBytes, length);
        linesSinceCompaction += 1;
      });
    },
    append(key, id, atMs, entryJson, pending) {
      linesSinceCompaction += 1;
      const prefix = linePrefix(key, id, atMs);
      return files.append(`${prefix}${entryJson}]\n`, (seq, offset) => {
        const prefixBytes = Buffer.byteLength(prefix, 'utf8');
        memory.place(key, id, pending, seq, offset + prefixBytes, Buffer.byteLength(entryJson, 'utf8'));
      });
    },
    written: () => files.written(),
    readTexts(entries) {
      const onDisk: number[] = [];
      for (let i = 0; i < entries.texts.length; i++) if (entries.texts[i] === undefined) onDisk.push(i);
      readPlaced(entries, onDisk, (i, data, start) => {
        entries.texts[i] = data.toString('utf8', start, start + (entries.lengths[i] as number));
      });
    },
    compact: startCompaction,
    async close() {
      isClosing = true;
      await compacting?.catch(() => undefined); // logged where it was started
      await files.close();
    },
  };
}

/** Points the held entries of a snapshot a compaction wrote to segment `seq` there, yielding now and then. */
async function relocateAll(memory: RecentMemory, snapshot: Snapshot, seq: number, moved: Moved[]): Promise<void> {
  let relocated = 0;
  for (let k = 0; k < snapshot.length; k++) {
    const { key, entries } = snapshot[k] as Snapshot[number];
    const held = entries();
    memory.relocate(key, held, seq, moved[k] as Moved);
    relocated += held.ids.length;
    if (relocated >= relocateChunkEntries) {
      relocated = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * Deletes the segments before `seq`: every line of theirs is in it or was pushed out by a line
 * that is. One a held entry still points at (a fault: `inUse` is told) stays, for the next
 * compaction to take over. They stop being counted at once; resolves once their files are gone.
 */
function deleteReplaced(
  memory: RecentMemory,
  files: SegmentFiles,
  seq: number,
  inUse: (segment: number) => void,
): Promise<unknown> {
  const segments = memory.segmentsInUse();
  const deletions: Array<Promise<void>> = [];
  for (const older of files.sealed()) {
    if (older >= seq) continue;
    if (segments.has(older)) inUse(older);
    else deletions.push(files.delete(older));
  }
  return Promise.all(deletions);
}

/** Hands `sink` the bytes of texts on disk: `data` from byte `start`. */
type ReadPlaced = (entries: Entries, indices: number[], sink: (i: number, data: Buffer, start: number) => void) => void;

/**
 * Reads the texts of `entries` at `indices` (all on disk), sorted by segment and offset, texts
 * close together with one pread.
 */
function createTextReader(files: SegmentFiles): ReadPlaced {
  /** Where ranges are read to (grown for a text longer than readSpanBytes). */
  let scratch = Buffer.alloc(0);
  return (entries, indices, sink) => {
    const { segs, offsets, lengths } = entries;
    const segOf = (n: number) => segs[indices[n] as number] as number;
    const offsetOf = (n: number) => offsets[indices[n] as number] as number;
    const endOf = (n: number) => offsetOf(n) + (lengths[indices[n] as number] as number);
    indices.sort(
      (a, b) => (segs[a] as number) - (segs[b] as number) || (offsets[a] as number) - (offsets[b] as number),
    );
    for (let first = 0; first < indices.length;) {
      const seg = segOf(first);
      const from = offsetOf(first);
      let to = endOf(first);
      let last = first + 1;
      for (; last < indices.length; last++) {
        if (segOf(last) !== seg || offsetOf(last) - to > readGapBytes || endOf(last) - from > readSpanBytes) break;
        to = Math.max(to, endOf(last));
      }
      if (scratch.length < to - from) scratch = Buffer.allocUnsafe(Math.max(readSpanBytes, to - from));
      files.readSync(seg, from, to - from, scratch, 0);
      for (let n = first; n < last; n++) sink(indices[n] as number, scratch, offsetOf(n) - from);
      first = last;
    }
  };
}

/**
 * Writes the snapshot's entries to `file` a chunk at a time (the texts on disk copied as bytes,
 * `readPlaced`), the event loop turning while each chunk is written. Returns where each key's
 * entries are in the file.
 */
async function writeSnapshot(file: string, snapshot: Snapshot, readPlaced: ReadPlaced): Promise<Moved[]> {
  const moved: Moved[] = snapshot.map(() => ({ offsets: [], lengths: [] }));
  const handle = await open(file, 'w', privateFileMode);
  let isWritten = false;
  let fileBytes = 0;
  /** The chunk's lines: their entries (key k's entry i), prefixes, and where the texts are now. */
  let lines = { ks: [] as number[], is: [] as number[], prefixes: [] as string[], now: emptyEntries() };

  async function writeChunk(): Promise<void> {
    const { ks, is, prefixes, now } = lines;
    lines = { ks: [], is: [], prefixes: [], now: emptyEntries() };
    let chunkBytes = 0;
    for (let n = 0; n < ks.length; n++) {
      const text = now.texts[n];
      if (text !== undefined) now.lengths[n] = Buffer.byteLength(text, 'utf8');
      chunkBytes += Buffer.byteLength(prefixes[n] as string, 'utf8') + (now.lengths[n] as number) + 2;
    }
    const chunk = Buffer.allocUnsafe(chunkBytes);
    const at: number[] = [];
    const onDisk: number[] = [];
    let end = 0;
    for (let n = 0; n < ks.length; n++) {
      end += chunk.write(prefixes[n] as string, end, 'utf8');
      at.push(end);
      const place = moved[ks[n] as number] as Moved;
      place.offsets[is[n] as number] = fileBytes + end;
      place.lengths[is[n] as number] = now.lengths[n] as number;
      const text = now.texts[n];
      if (text === undefined) onDisk.push(n);
      else chunk.write(text, end, 'utf8');
      end += now.lengths[n] as number;
      end += chunk.write(']\n', end, 'latin1');
    }
    readPlaced(now, onDisk, (n, data, start) => {
      data.copy(chunk, at[n] as number, start, start + (now.lengths[n] as number));
    });
    // the places above assume every byte lands: a short write is followed up
    for (let written = 0; written < chunk.length;) written += (await handle.write(chunk, written)).bytesWritten;
    fileBytes += chunkBytes;
  }

  try {
    for (let k = 0; k < snapshot.length; k++) {
      const { key } = snapshot[k] as Snapshot[number];
      const entries = (snapshot[k] as Snapshot[number]).entries();
      for (let i = 0; i < entries.ids.length; i++) {
        lines.ks.push(k);
        lines.is.push(i);
        lines.prefixes.push(linePrefix(key, entries.ids[i] as string, entries.ats[i] as number));
        lines.now.segs.push(entries.segs[i] as number);
        lines.now.offsets.push(entries.offsets[i] as number);
        lines.now.lengths.push(entries.lengths[i] as number);
        lines.now.texts.push(entries.texts[i]);
        if (lines.ks.length >= compactionChunkLines) await writeChunk();
      }
    }
    await writeChunk();
    await handle.sync();
    isWritten = true;
  } finally {
    await handle.close();
    if (!isWritten) rmSync(file, { force: true });
  }
  return moved;
}

interface LogLine {
  key: string;
  id: string;
  atMs: number;
  /** The bytes of the line before its entry (`[<key>,<id>,<at ms>,`). */
  prefixBytes: number;
}

function parseLine(text: string): LogLine | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
    const [key, id, atMs, entry] = parsed as unknown[];
    if (typeof key !== 'string' || typeof id !== 'string' || typeof atMs !== 'number') return undefined;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
    // as it was written (linePrefix), so the entry's text is the rest of the line but its ']'
    const prefix = linePrefix(key, id, atMs);
    if (!text.startsWith(prefix) || !text.endsWith(']')) return undefined;
    return { key, id, atMs, prefixBytes: Buffer.byteLength(prefix, 'utf8') };
  } catch {
    return undefined;
  }
}

/**
 * Loads the former collection's datafile with NeDB (which folds its updates and deletions) and
 * inserts each document, oldest first, so each key keeps its newest `keepPerKey`.
 */
async function importFormer(
  former: NonNullable<RecentLogOptions['former']>,
  memory: RecentMemory,
  log: Logger,
): Promise<void> {
  const { datafile, keyField, atField } = former;
  const datastore = new Datastore<Record<string, unknown> & { _id: string }>({ filename: datafile });
  await datastore.loadDatabaseAsync();
  const rows: Array<{ key: string; id: string; atMs: number; entryJson: string }> = [];
  let skipped = 0;
  for (const doc of datastore.getAllData()) {
    const { _id: id, [keyField]: key, [atField]: at, ...entry } = doc;
    if (typeof key !== 'string' || !(at instanceof Date)) {
      skipped += 1;
      continue;
    }
    rows.push({ key, id, atMs: at.getTime(), entryJson: JSON.stringify(entry) });
  }
  rows.sort((a, b) => a.atMs - b.atMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // held in memory until the compaction that follows writes them
  for (const row of rows) memory.insertPending(row.key, row.id, row.atMs, row.entryJson);
  log.info(
    { datafile, documents: rows.length, skipped },
    'imported the entries of a former collection into its recent log',
  );
}
