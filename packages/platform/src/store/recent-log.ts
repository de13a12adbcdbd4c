import { existsSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import type { Logger } from '../log/logger';
import { privateFileMode, syncDir } from '../files';
import { createSegmentFiles } from './segment-files';
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
}

/** Lines serialised between two yields to the event loop while compacting. */
const compactionChunkLines = 1000;

/**
 * The embedded store's recent log: each key's newest entries in memory, the log on disk only to
 * rebuild them after a restart. A NeDB document per chat line cost ~830 bytes of heap (the
 * document, its index nodes, its entry in the compaction map) and ~45 µs of CPU with the trims;
 * here a line costs its JSON text, its id and four array slots, ~460 bytes, and ~10 µs
 * (`npm run bench:chatlog`, docs/performance.md).
 *
 * The log: one line per entry appended, `[<key>,<id>,<at ms>,<entry>]` as JSON, in groups: the
 * lines of one turn of the event loop go out with one write(2) on the next turn, and each append
 * resolves once its line is written (segment-files.ts, shared with the claim log). Entries pushed
 * out of memory by newer ones stay in the log until a compaction: once the lines appended since
 * the last one outnumber the entries held (and at least `minLinesBeforeCompaction`), the current
 * segment is closed, memory is written (in chunks, the appends going on into a new segment) to a
 * temporary file that then takes its place in the order of segments, and the older segments are
 * deleted. Replaying applies every segment in order; a line seen before is a no-op, so a crash at
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

  return {
    open() {
      opening ??= replay();
      return opening;
    },
    async append(key, id, at, entry) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the recent log is closed');
      const atMs = at.getTime();
      const entryJson = flattened(JSON.stringify(entry));
      if (!memory.insert(key, id, atMs, entryJson)) return files.written();
      return files.append(lineOf(key, id, atMs, entryJson));
    },
    async recent(key, limit) {
      if (!isOpen) await ready();
      return memory.recent<E>(key, limit);
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      await opening?.catch(() => undefined);
      await files.close();
    },
  };
}

/**
 * The same text as one flat string. V8's JSON.stringify returns a rope of the parts it wrote into
 * (32, 64, 128… characters), and a rope is kept as is until something reads it whole: a chat line's
 * ~330 characters cost ~510 bytes of heap that way, ~370 flat (docs/performance.md, "Memory",
 * third round). Converting a string to a number flattens it in place; the GC then drops the rope.
 */
function flattened(text: string): string {
  Number(text);
  return text;
}

const lineOf = (key: string, id: string, atMs: number, entryJson: string): string =>
  `[${JSON.stringify(key)},${JSON.stringify(id)},${atMs},${entryJson}]\n`;

/**
 * One key's entries, oldest first, in parallel arrays: an entry is its id, its id's hash, its date
 * (a double, unboxed in the array) and its JSON text (one flat string), not an object of its own.
 */
interface KeyEntries {
  ids: string[];
  /**
   * idHash of each id: an append looks for its id among the key's 100 or so by these first. Its
   * scan of the ids themselves cost ~10 µs an append (a cache miss per string, the strings being
   * scattered over the heap), these ~1 µs.
   */
  hashes: number[];
  ats: number[];
  texts: string[];
}

/** FNV-1a, 32 bits: a small integer, kept in the array itself. */
function idHash(id: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash;
}

function holds({ ids, hashes }: KeyEntries, id: string, hash: number): boolean {
  for (let i = hashes.length - 1; i >= 0; i--) if (hashes[i] === hash && ids[i] === id) return true;
  return false;
}

/** Every key's newest entries, in order of `at` then id; at most `keepPerKey` a key. */
interface RecentMemory {
  /** False when it changed nothing: the id is held already, or the entry is older than a full key's. */
  insert(key: string, id: string, atMs: number, entryJson: string): boolean;
  recent<E extends RecentEntry>(key: string, limit: number): Array<RecentItem<E>>;
  /** How many entries are held, over all keys. */
  size(): number;
  /** Every key's entries as they are now (copies of the arrays, sharing the strings). */
  snapshot(): Array<{ key: string; entries: KeyEntries }>;
}

function createRecentMemory(keepPerKey: number): RecentMemory {
  const byKey = new Map<string, KeyEntries>();
  let size = 0;
  const isBefore = (atMs: number, id: string, otherAtMs: number, otherId: string) =>
    atMs < otherAtMs || (atMs === otherAtMs && id < otherId);

  return {
    insert(key, id, atMs, entryJson) {
      let held = byKey.get(key);
      if (!held) {
        held = { ids: [], hashes: [], ats: [], texts: [] };
        byKey.set(key, held);
      }
      const { ids, hashes, ats, texts } = held;
      // a scan of at most keepPerKey hashes: cheaper in memory than a Set per key (~40 bytes an entry)
      const hash = idHash(id);
      if (holds(held, id, hash)) return false;
      // lines come in order mostly: the place is found from the end
      let at = ids.length;
      while (at > 0 && isBefore(atMs, id, ats[at - 1] as number, ids[at - 1] as string)) at -= 1;
      if (at === 0 && ids.length >= keepPerKey) return false; // older than every kept entry
      if (at === ids.length) {
        ids.push(id);
        hashes.push(hash);
        ats.push(atMs);
        texts.push(entryJson);
      } else {
        ids.splice(at, 0, id);
        hashes.splice(at, 0, hash);
        ats.splice(at, 0, atMs);
        texts.splice(at, 0, entryJson);
      }
      size += 1;
      if (ids.length > keepPerKey) {
        ids.shift();
        hashes.shift();
        ats.shift();
        texts.shift();
        size -= 1;
      }
      return true;
    },
    recent<E extends RecentEntry>(key: string, limit: number) {
      const held = byKey.get(key);
      if (!held || limit <= 0) return [];
      const items: Array<RecentItem<E>> = [];
      for (let i = Math.max(0, held.ids.length - limit); i < held.ids.length; i++) {
        items.push({
          id: held.ids[i] as string,
          at: new Date(held.ats[i] as number),
          entry: JSON.parse(held.texts[i] as string) as E,
        });
      }
      return items;
    },
    size: () => size,
    snapshot: () =>
      Array.from(byKey, ([key, { ids, hashes, ats, texts }]) => ({
        key,
        entries: { ids: ids.slice(), hashes: hashes.slice(), ats: ats.slice(), texts: texts.slice() },
      })),
  };
}

/** The log's segment files, cut by compactions. */
interface RecentSegments {
  /** Applies every segment to memory, oldest first (at open, before any append). */
  replay(): Promise<void>;
  /** Resolves once the line is written. */
  append(line: string): Promise<void>;
  /** Resolves once the lines appended so far are written. */
  written(): Promise<void>;
  /** Writes memory as a segment of its own and deletes the ones before it. */
  compact(): Promise<void>;
  /** Waits for a running compaction, writes what is buffered and closes the file. */
  close(): Promise<void>;
}

const compactionFile = 'compaction.tmp';

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
    await writeSnapshot(temp, memory.snapshot());
    await options.beforeCompactionRename?.();
    await rename(temp, file);
    // the rename made durable before the segments it replaces go (their deletion could outlast it)
    await syncDir(dir);
    // every line of the older segments is in the new one or was pushed out by a line that is
    for (const older of files.sealed()) if (older < seq) files.delete(older);
    files.addSealed(seq);
  }

  return {
    async replay() {
      rmSync(path.join(dir, compactionFile), { force: true }); // a compaction a crash cut short
      await files.open(parseLine, (line) => {
        // re-serialised: a slice of the file's text would keep all of it in memory
        memory.insert(line.key, line.id, line.atMs, flattened(JSON.stringify(line.entry)));
        linesSinceCompaction += 1;
      });
    },
    append(line) {
      linesSinceCompaction += 1;
      return files.append(line);
    },
    written: () => files.written(),
    compact: startCompaction,
    async close() {
      isClosing = true;
      await compacting?.catch(() => undefined); // logged where it was started
      await files.close();
    },
  };
}

/** Writes a snapshot of memory to `file`, yielding to the event loop between chunks. */
async function writeSnapshot(file: string, snapshot: ReturnType<RecentMemory['snapshot']>): Promise<void> {
  const handle = await open(file, 'w', privateFileMode);
  let isWritten = false;
  try {
    let text = '';
    let lines = 0;
    for (const { key, entries } of snapshot) {
      for (let i = 0; i < entries.ids.length; i++) {
        text += lineOf(key, entries.ids[i] as string, entries.ats[i] as number, entries.texts[i] as string);
        if (++lines % compactionChunkLines !== 0) continue;
        await handle.write(text);
        text = '';
      }
    }
    await handle.write(text);
    await handle.sync();
    isWritten = true;
  } finally {
    await handle.close();
    if (!isWritten) rmSync(file, { force: true });
  }
}

interface LogLine {
  key: string;
  id: string;
  atMs: number;
  entry: RecentEntry;
}

function parseLine(text: string): LogLine | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
    const [key, id, atMs, entry] = parsed as unknown[];
    if (typeof key !== 'string' || typeof id !== 'string' || typeof atMs !== 'number') return undefined;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
    return { key, id, atMs, entry: entry as RecentEntry };
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
  for (const row of rows) memory.insert(row.key, row.id, row.atMs, row.entryJson);
  log.info(
    { datafile, documents: rows.length, skipped },
    'imported the entries of a former collection into its recent log',
  );
}
