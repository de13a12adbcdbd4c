import { closeSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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
 * An append-only log as a folder of numbered segment files. Appends are buffered and the lines of
 * one task go out with one write(2) at its end (end-of-task.ts: once the microtasks queued so far
 * have run); each append resolves once its line is written, so a crash after it loses nothing. When a segment is
 * begun, sealed or deleted is the log's own policy (by time for claims, by compaction for recent
 * entries); this only keeps the files.
 */
export interface SegmentFiles {
  /**
   * Makes the folder (owner-only) and reads every segment in it, oldest first, handing each line
   * `parse` reads to `apply` with its segment's number; a line it cannot read (one cut short by a
   * crash) is skipped, all of them counted in one warning. Those segments are sealed: never
   * appended to again, as their last line may be cut short. Once, before any append.
   */
  open<L>(parse: (text: string) => L | undefined, apply: (line: L, seq: number) => void): Promise<void>;
  /** Resolves once the line (ending with '\n') is written. */
  append(line: string): Promise<void>;
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
  /** Deletes a sealed segment's file (a warning if that fails). */
  delete(seq: number): void;
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
  let current: { seq: number; fd: number } | undefined;
  let buffer = '';
  /** The write that will take the buffer (at the end of this task). */
  let pending: Promise<void> | undefined;

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
    if (buffer === '') return;
    options.beforeWrite?.();
    if (!current) {
      const seq = nextSeq++;
      current = { seq, fd: openSync(fileOf(seq), 'a', privateFileMode) };
    }
    const { seq, fd } = current;
    const data = Buffer.from(buffer, 'utf8');
    buffer = '';
    for (let offset = 0; offset < data.length;) offset += writeSync(fd, data, offset);
    options.afterWrite?.(seq);
  }

  return {
    async open(parse, apply) {
      await ensurePrivateDir(dir);
      const names = readdirSync(dir)
        .filter((name) => segmentPattern.test(name))
        .sort();
      let unreadable = 0;
      for (const name of names) {
        const seq = Number(name.slice(0, 12));
        for (const text of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
          if (text === '') continue;
          const line = parse(text);
          if (line === undefined) unreadable += 1;
          else apply(line, seq);
        }
        sealed.push(seq);
        nextSeq = seq + 1;
      }
      if (unreadable > 0) log.warn({ dir, unreadable }, `${label} lines that could not be read were skipped`);
    },
    append(line) {
      buffer += line;
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
      try {
        unlinkSync(fileOf(seq));
      } catch (err) {
        log.warn({ err, file: fileOf(seq) }, `could not delete a ${label} segment`);
      }
    },
    async close() {
      await pending?.catch(() => undefined); // its appends were told already
      flush();
      sealCurrent();
    },
  };
}

/** Runs `task` at the end of this task (end-of-task.ts); resolves or rejects as it does. */
function atEndOfTask(task: () => void): Promise<void> {
  return endOfTask().then(task);
}
