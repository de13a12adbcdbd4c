import { closeSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock/clock';
import type { Logger } from '../log/logger';
import { ensurePrivateDir, privateFileMode } from '../files';
import type { ClaimSet } from './store';

export interface ClaimLogOptions {
  /** The folder of the log's segment files (the embedded store uses `<its dir>/<name>.claims`). */
  dir: string;
  expireAfterMs: number;
  /**
   * At most this many claims are held; beyond it the oldest are forgotten (a warning says so), so a
   * redelivery of one of those would be taken again. Every consumer of what the claims guard drops
   * an event id it has seen, so the claim is a first filter, not the only one.
   */
  maxClaims: number;
  clock: Clock;
  log: Logger;
  /** A new segment file is begun once the current one is this old; a tenth of the expiry by default. */
  segmentMs?: number;
  /** The datafile a former version kept these claims in as store documents: deleted on open. */
  formerDatafile?: string;
}

/** Enough for 10 minutes at 1,666 claims a second; each costs ~100 bytes of heap (docs/performance.md). */
export const defaultMaxClaims = 1_000_000;

/**
 * The embedded store's claim set: the claims in a Map (id → claim date), the log on disk only to
 * rebuild it after a restart. Instead of one document per claim (a NeDB document, its two index
 * nodes and its datafile line: ~380 bytes of heap each, 600,000 of them for 10 minutes at 1,000 a
 * second), a claim costs a Map entry (~100 bytes; `bench:claims` in tools/bench).
 *
 * The log: lines `+<date ms> <id as JSON>` (claimed) and `-<id as JSON>` (released), appended in
 * groups: the lines of one turn of the event loop go out with one write(2) on the next turn, and
 * each claim resolves once its line is written (as the embedded store's journal does). The log is
 * cut into segment files by time; a segment is deleted once all of its claims expired, so it never
 * needs rewriting. Opening replays the segments in order, then starts a new one.
 */
export function createClaimLog(options: ClaimLogOptions): ClaimSet & { close(): Promise<void> } {
  const { clock } = options;
  const memory = createClaimMemory(options);
  const segments = createSegmentedLog(options);
  let opening: Promise<void> | undefined;
  let isOpen = false;
  let isClosed = false;

  async function replay(): Promise<void> {
    await ensurePrivateDir(options.dir);
    if (options.formerDatafile) rmSync(options.formerDatafile, { force: true });
    const nowMs = clock.now().getTime();
    segments.replay(nowMs, (line) => {
      if (line.kind === 'released') memory.forget(line.id);
      else memory.remember(line.id, line.atMs, nowMs);
    });
    isOpen = true;
  }

  async function ready(): Promise<void> {
    if (isClosed) throw new Error('the claim log is closed');
    // once open, a claim decides without yielding: a claim and a close in one turn keep their order
    if (isOpen) return;
    if (!opening) throw new Error('the claim log is not open (open() first)');
    await opening;
  }

  return {
    open() {
      opening ??= replay();
      return opening;
    },
    async claim(id, at) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the claim log is closed');
      const nowMs = clock.now().getTime();
      if (memory.holds(id, nowMs)) return false;
      const atMs = at.getTime();
      memory.remember(id, atMs, nowMs);
      await segments.append(`+${atMs} ${JSON.stringify(id)}\n`, atMs);
      return true;
    },
    async release(id) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the claim log is closed');
      memory.forget(id);
      // logged even when memory no longer held it (forgotten beyond the bound): its claim line may be replayed
      await segments.append(`-${JSON.stringify(id)}\n`, -Infinity);
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      await opening?.catch(() => undefined);
      await segments.close();
    },
  };
}

/** The claims held, by id, in claim order; bounded by `maxClaims`. */
interface ClaimMemory {
  /** Whether a live claim holds the id (expired ones are dropped on the way). */
  holds(id: string, nowMs: number): boolean;
  /** Records a claim (a live one only: an expired one is dropped). */
  remember(id: string, atMs: number, nowMs: number): void;
  /** False when nothing held it. */
  forget(id: string): boolean;
}

/**
 * Expiry needs no timer: the Map keeps insertion order, which is claim order, so expired claims are
 * dropped from its front as claims come in (at most once a second), and a lookup checks the date.
 */
function createClaimMemory(options: ClaimLogOptions): ClaimMemory {
  const { expireAfterMs, maxClaims, log, dir } = options;
  /**
   * id → claim date in ms after `baseMs`: a small integer for 24 days after the start, which V8
   * keeps in the entry itself; a full date would be a 16-byte number object per claim.
   */
  const claims = new Map<string, number>();
  const baseMs = options.clock.now().getTime();
  let lastPruneMs = -Infinity;
  let forgotten = 0;
  let lastWarningMs = -Infinity;
  const isLive = (relativeMs: number, nowMs: number) => baseMs + relativeMs + expireAfterMs >= nowMs;

  function pruneExpired(nowMs: number): void {
    lastPruneMs = nowMs;
    for (const [id, relativeMs] of claims) {
      if (isLive(relativeMs, nowMs)) break;
      claims.delete(id);
    }
  }

  function keepBound(nowMs: number): void {
    if (claims.size <= maxClaims) return;
    for (const oldest of claims.keys()) {
      if (claims.size <= maxClaims) break;
      claims.delete(oldest);
      forgotten += 1;
    }
    if (nowMs - lastWarningMs < 60_000) return;
    lastWarningMs = nowMs;
    log.warn({ dir, maxClaims, forgotten }, 'too many claims held: the oldest are forgotten before they expire');
  }

  return {
    holds(id, nowMs) {
      if (nowMs - lastPruneMs >= 1000) pruneExpired(nowMs);
      const held = claims.get(id);
      return held !== undefined && isLive(held, nowMs);
    },
    remember(id, atMs, nowMs) {
      claims.delete(id); // a claim taken again moves to the end: it is the newest now
      if (!isLive(atMs - baseMs, nowMs)) return;
      claims.set(id, atMs - baseMs);
      keepBound(nowMs);
    },
    forget: (id) => claims.delete(id),
  };
}

type LogLine = { kind: 'claimed'; id: string; atMs: number } | { kind: 'released'; id: string };

/** The log's files: appends grouped per turn of the event loop, segments by time. */
interface SegmentedLog {
  /** Reads every segment in order (at open, before any append). */
  replay(nowMs: number, apply: (line: LogLine) => void): void;
  /** Resolves once the line is written; `atMs` is its claim date (-Infinity for a release). */
  append(line: string, atMs: number): Promise<void>;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

/** A segment file no longer written to; deleted once every claim in it has expired. */
interface ClosedSegment {
  file: string;
  /** The latest claim date in it (-Infinity: only releases). */
  newestAtMs: number;
}

const segmentPattern = /^\d{12}\.log$/;
const segmentName = (seq: number) => `${String(seq).padStart(12, '0')}.log`;

function createSegmentedLog(options: ClaimLogOptions): SegmentedLog {
  const { dir, expireAfterMs, clock, log } = options;
  const segmentMs = options.segmentMs ?? Math.max(1000, Math.floor(expireAfterMs / 10));
  const closed: ClosedSegment[] = [];
  let nextSeq = 0;
  let current: { seq: number; fd: number; openedAtMs: number; newestAtMs: number } | undefined;
  let buffer = '';
  /** The latest claim date among the buffered lines. */
  let bufferNewestAtMs = -Infinity;
  let pending: Promise<void> | undefined;
  const isLive = (atMs: number, nowMs: number) => atMs + expireAfterMs >= nowMs;

  /** Deletes the oldest closed segments whose claims have all expired. */
  function dropExpiredSegments(nowMs: number): void {
    while (closed[0] && !isLive(closed[0].newestAtMs, nowMs)) {
      const { file } = closed[0];
      closed.shift();
      try {
        unlinkSync(file);
      } catch (err) {
        log.warn({ err, file }, 'could not delete an expired claim log segment');
      }
    }
  }

  function closeCurrent(): void {
    if (!current) return;
    const { fd, seq, newestAtMs } = current;
    current = undefined;
    closeSync(fd);
    closed.push({ file: path.join(dir, segmentName(seq)), newestAtMs });
  }

  /** Writes the buffered lines with one write(2), to a new segment when the current one is old. */
  function flush(): void {
    pending = undefined;
    if (buffer === '') return;
    const nowMs = clock.now().getTime();
    if (current && nowMs - current.openedAtMs >= segmentMs) closeCurrent();
    if (!current) {
      const seq = nextSeq++;
      const fd = openSync(path.join(dir, segmentName(seq)), 'a', privateFileMode);
      current = { seq, fd, openedAtMs: nowMs, newestAtMs: -Infinity };
    }
    current.newestAtMs = Math.max(current.newestAtMs, bufferNewestAtMs);
    const data = Buffer.from(buffer, 'utf8');
    buffer = '';
    bufferNewestAtMs = -Infinity;
    for (let offset = 0; offset < data.length;) offset += writeSync(current.fd, data, offset);
    dropExpiredSegments(nowMs);
  }

  return {
    replay(nowMs, apply) {
      const found = readSegments(dir, log, apply);
      closed.push(...found.segments);
      nextSeq = found.nextSeq;
      dropExpiredSegments(nowMs);
    },
    append(line, atMs) {
      buffer += line;
      bufferNewestAtMs = Math.max(bufferNewestAtMs, atMs);
      // the lines of this turn of the event loop go out together
      pending ??= new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          try {
            flush();
            resolve();
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      return pending;
    },
    async close() {
      await pending?.catch(() => undefined); // its claims were told already
      flush();
      closeCurrent();
    },
  };
}

/** Applies every line of the folder's segments, oldest first. */
function readSegments(
  dir: string,
  log: Logger,
  apply: (line: LogLine) => void,
): { segments: ClosedSegment[]; nextSeq: number } {
  const segments: ClosedSegment[] = [];
  let nextSeq = 0;
  let unreadable = 0;
  for (const name of readdirSync(dir)
    .filter((entry) => segmentPattern.test(entry))
    .sort()) {
    const file = path.join(dir, name);
    let newestAtMs = -Infinity;
    // a segment holds `segmentMs` of claims at most (~2.6 MB a minute at 1,000 a second)
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (text === '') continue;
      const line = parseLine(text);
      if (!line)
        unreadable += 1; // a line cut short by a crash
      else if (line.kind === 'claimed') newestAtMs = Math.max(newestAtMs, line.atMs);
      if (line) apply(line);
    }
    segments.push({ file, newestAtMs });
    // the file is never appended to again: its last line may be cut short
    nextSeq = Number(name.slice(0, 12)) + 1;
  }
  if (unreadable > 0) log.warn({ dir, unreadable }, 'claim log lines that could not be read were skipped');
  return { segments, nextSeq };
}

function parseLine(line: string): LogLine | undefined {
  try {
    if (line.startsWith('-')) {
      const id: unknown = JSON.parse(line.slice(1));
      return typeof id === 'string' ? { kind: 'released', id } : undefined;
    }
    const space = line.indexOf(' ');
    if (!line.startsWith('+') || space < 0) return undefined;
    const atMs = Number(line.slice(1, space));
    const id: unknown = JSON.parse(line.slice(space + 1));
    return Number.isFinite(atMs) && typeof id === 'string' ? { kind: 'claimed', id, atMs } : undefined;
  } catch {
    return undefined;
  }
}
