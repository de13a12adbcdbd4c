import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, writeSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/logger';
import { ensurePrivateDir, privateFileMode } from '../files';
import { endOfTask } from './end-of-task';

export interface SegmentFilesOptions {
  /** The log's folder; its segments are the files named `<12-digit sequence number>.log`. */
  dir: string;
  /** What the log is called in warnings ("claim log"). */
  label: string;
  log: Logger;
  /**
   * Runs when the buffered lines are about to be written, just before: the log may
   * seal the current segment here (its policy), and they then begin a new one.
   */
  beforeWrite?: () => void;
  /** Runs once they are written, with the number of the segment they went to. */
  afterWrite?: (seq: number) => void;
}

/**
 * Told where an appended line went once it is written: its segment and the byte offset of its
 * first byte there. Runs inside the write, before `afterWrite` and before the append resolves.
 */
export type LinePlaced = (seq: number, offset: number) => void;

/**
 * An append-only log as a folder of numbered segment files. Appends are buffered and the lines of
 * one task go out with one write(2) at its end (end-of-task.ts: once the microtasks queued so far
 * have run); each append resolves once its line is written, so a crash after it loses nothing. When a segment is
 * begun, sealed or deleted is the log's own policy (by time for claims, by compaction for recent
 * entries); this only keeps the files.
 */
export interface SegmentFiles {
  /**
   * Makes the folder (owner-only) and reads every segment in it, oldest first, handing each line
   * `parse` reads to `apply` with its segment's number, the byte offset of its first byte and its
   * length in bytes (without its '\n'); a line it cannot read (one cut short by a crash) is
   * skipped, all of them counted in one warning. Those segments are sealed: never appended to
   * again, as their last line may be cut short. Once, before any append.
   */
  open<L>(
    parse: (text: string) => L | undefined,
    apply: (line: L, seq: number, offset: number, bytes: number) => void,
  ): Promise<void>;
  /** Resolves once the line (ending with '\n') is written; `placed` is told where it went. */
  append(line: string, placed?: LinePlaced): Promise<void>;
  /** Resolves once every line appended so far is written. */
  written(): Promise<void>;
  /** Closes the segment being appended to; the next write begins a new one. */
  sealCurrent(): void;
  /** The sealed segments' numbers, oldest first (a copy). */
  sealed(): number[];
  /**
   * Takes the next number for a segment the log writes whole itself (a compaction): appends go to
   * later ones. Returns the file it is to be put in.
   */
  reserve(): { seq: number; file: string };
  /** Counts a reserved segment, now in its file, among the sealed ones. */
  addSealed(seq: number): void;
  /**
   * Stops counting a sealed segment and closes its read handle at once, and deletes its file in
   * libuv's thread pool: an unlink of a segment of tens of MB held the owner thread 13–16 ms.
   * Resolves once the file is gone (a warning if that fails; never rejects); `close` waits for it.
   * A crash before then leaves the file, read again at the next open, as before its deletion.
   */
  delete(seq: number): Promise<void>;
  /**
   * Reads `length` bytes of segment `seq` from byte `offset` into `into` at `at`, synchronously
   * (what was written lately is in the page cache: a few µs). The segment's read handle is opened
   * at its first read and kept until the segment is deleted or the files closed. Throws when the
   * segment holds fewer bytes there.
   */
  readSync(seq: number, offset: number, length: number, into: Buffer, at: number): void;
  /** Waits for the pending write, writes what was appended since and closes the current segment. */
  close(): Promise<void>;
}

const segmentPattern = /^\d{12}\.log$/;
const segmentName = (seq: number) => `${String(seq).padStart(12, '0')}.log`;

export function createSegmentFiles(options: SegmentFilesOptions): SegmentFiles {
  const { dir, label, log } = options;
  const fileOf = (seq: number) => path.join(dir, segmentName(seq));
  /** Segments on disk no longer appended to, oldest first. */
  let sealed: number[] = [];
  let nextSeq = 0;
  /** The segment appended to, and its length in bytes. */
  let current: { seq: number; fd: number; size: number } | undefined;
  const buffer = createLineBuffer();
  const readers = createReaders(fileOf, label);
  /** The write that will take the buffer (at the end of this task). */
  let pending: Promise<void> | undefined;
  const deletions = createDeletions(log, label);

  function sealCurrent(): void {
    if (!current) return;
    const { fd, seq } = current;
    current = undefined;
    closeSync(fd);
    sealed.push(seq);
  }

  /** Writes the buffered lines with one write(2). */
  function flush(): void {
    pending = undefined;
    if (buffer.isEmpty()) return;
    options.beforeWrite?.();
    if (!current) {
      const seq = nextSeq++;
      const fd = openSync(fileOf(seq), 'a', privateFileMode);
      current = { seq, fd, size: fstatSync(fd).size };
    }
    const { seq, fd, size: start } = current;
    const { data, placed, offsets } = buffer.take();
    writeWhole(fd, data, sealCurrent);
    current.size += data.length;
    for (let i = 0; i < placed.length; i++) (placed[i] as LinePlaced)(seq, start + (offsets[i] as number));
    options.afterWrite?.(seq);
  }

  return {
    async open(parse, apply) {
      await ensurePrivateDir(dir);
      let unreadable = 0;
      for (const seq of segmentsIn(dir)) {
        unreadable += readLines(fileOf(seq), parse, (line, offset, bytes) => apply(line, seq, offset, bytes));
        sealed.push(seq);
        nextSeq = seq + 1;
      }
      if (unreadable > 0) log.warn({ dir, unreadable }, `${label} lines that could not be read were skipped`);
    },
    append(line, placed) {
      buffer.add(line, placed);
      // the lines of this task go out together
      pending ??= atEndOfTask(flush);
      return pending;
    },
    written: () => pending ?? Promise.resolve(),
    sealCurrent,
    sealed: () => sealed.slice(),
    reserve() {
      const seq = nextSeq++;
      return { seq, file: fileOf(seq) };
    },
    addSealed(seq) {
      sealed.push(seq);
      sealed.sort((a, b) => a - b);
    },
    delete(seq) {
      sealed = sealed.filter((other) => other !== seq);
      readers.close(seq);
      return deletions.delete(fileOf(seq));
    },
    readSync: readers.readSync,
    async close() {
      await pending?.catch(() => undefined); // its appends were told already
      await deletions.done();
      try {
        flush();
        sealCurrent();
      } finally {
        readers.closeAll();
      }
    },
  };
}

/**
 * Writes all of `data`, or runs `onFailure` and throws. Part of it may be in the file then, its last
 * line cut short as by a crash: lines appended after it would not be at the offsets they are told,
 * so the caller seals the segment (open() skips such a line) and the next write begins a new one.
 */
function writeWhole(fd: number, data: Buffer, onFailure: () => void): void {
  try {
    for (let offset = 0; offset < data.length;) offset += writeSync(fd, data, offset);
  } catch (error) {
    onFailure();
    throw error;
  }
}

/** The numbers of the segments in `dir`, oldest first (other files ignored). */
function segmentsIn(dir: string): number[] {
  return readdirSync(dir)
    .filter((name) => segmentPattern.test(name))
    .sort()
    .map((name) => Number(name.slice(0, 12)));
}

/** Reads a segment's lines, handing each `parse` reads to `apply`; returns how many it could not read. */
function readLines<L>(
  file: string,
  parse: (text: string) => L | undefined,
  apply: (line: L, offset: number, bytes: number) => void,
): number {
  let unreadable = 0;
  const data = readFileSync(file);
  for (let start = 0; start < data.length;) {
    const newline = data.indexOf(0x0a, start);
    const end = newline < 0 ? data.length : newline;
    if (end > start) {
      const line = parse(data.toString('utf8', start, end));
      if (line === undefined) unreadable += 1;
      else apply(line, start, end - start);
    }
    start = end + 1;
  }
  return unreadable;
}

/** The lines appended since the last write, and where in them the lines asked about begin. */
function createLineBuffer(): {
  add(line: string, placed: LinePlaced | undefined): void;
  isEmpty(): boolean;
  /** The lines as UTF-8, the callbacks of the lines asked about and their offsets; empties the buffer. */
  take(): { data: Buffer; placed: LinePlaced[]; offsets: number[] };
} {
  let text = '';
  let placed: LinePlaced[] = [];
  let offsets: number[] = [];
  /** The text's length in bytes, counted once a line is asked about (only those need their offset). */
  let bytes = 0;
  return {
    add(line, onPlaced) {
      if (onPlaced) {
        if (placed.length === 0) bytes = Buffer.byteLength(text, 'utf8');
        placed.push(onPlaced);
        offsets.push(bytes);
      }
      if (placed.length > 0) bytes += Buffer.byteLength(line, 'utf8');
      text += line;
    },
    isEmpty: () => text === '',
    take() {
      const taken = { data: Buffer.from(text, 'utf8'), placed, offsets };
      text = '';
      placed = [];
      offsets = [];
      bytes = 0;
      return taken;
    },
  };
}

/** Files deleted in the thread pool (a warning when one cannot be), and a wait for those under way. */
function createDeletions(
  log: Logger,
  label: string,
): { delete(file: string): Promise<void>; done(): Promise<unknown> } {
  const underWay = new Set<Promise<void>>();
  return {
    delete(file) {
      const deletion = unlink(file).catch((err: unknown) => {
        log.warn({ err, file }, `could not delete a ${label} segment`);
      });
      underWay.add(deletion);
      void deletion.finally(() => underWay.delete(deletion));
      return deletion;
    },
    done: () => Promise.all(underWay),
  };
}

/** Read handles of the segments read so far, by number: opened at a segment's first read. */
function createReaders(
  fileOf: (seq: number) => string,
  label: string,
): Pick<SegmentFiles, 'readSync'> & { close(seq: number): void; closeAll(): void } {
  const handles = new Map<number, number>();
  const close = (seq: number) => {
    const fd = handles.get(seq);
    if (fd === undefined) return;
    handles.delete(seq);
    closeSync(fd);
  };
  return {
    readSync(seq, offset, length, into, at) {
      let fd = handles.get(seq);
      if (fd === undefined) {
        fd = openSync(fileOf(seq), 'r');
        handles.set(seq, fd);
      }
      for (let done = 0; done < length;) {
        const read = readSync(fd, into, at + done, length - done, offset + done);
        if (read === 0) throw new Error(`the ${label} segment ${seq} ends before byte ${offset + length}`);
        done += read;
      }
    },
    close,
    closeAll() {
      for (const seq of [...handles.keys()]) close(seq);
    },
  };
}

/** Runs `task` at the end of this task (end-of-task.ts); resolves or rejects as it does. */
function atEndOfTask(task: () => void): Promise<void> {
  return endOfTask().then(task);
}
