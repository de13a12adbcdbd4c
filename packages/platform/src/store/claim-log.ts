import { rmSync } from 'node:fs';
import type { Clock } from '../clock/clock';
import type { Logger } from '../log/logger';
import { createClaimTable } from './claim-table';
import { createSegmentFiles } from './segment-files';
import type { ClaimSet } from './store';

export interface ClaimLogOptions {
  /** The folder of the log's segment files (the embedded store uses `<its dir>/<name>.claims`). */
  dir: string;
  expireAfterMs: number;
  /**
   * At most this many claims are held (counting the places released claims leave until the oldest
   * pass them); beyond it the oldest are forgotten (a warning says so), so a redelivery of one of
   * those would be taken again. Every consumer of what the claims guard drops
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

/** Enough for 10 minutes at 1,666 claims a second; each costs ~30 bytes (claim-table.ts, docs/performance.md). */
export const defaultMaxClaims = 1_000_000;

/**
 * The embedded store's claim set: the claims in memory (id → claim date, claim-table.ts), the log
 * on disk only to rebuild it after a restart. Instead of one document per claim (a NeDB document,
 * its two index nodes and its datafile line: ~380 bytes of heap each, 600,000 of them for 10
 * minutes at 1,000 a second), a claim costs ~30 bytes of typed arrays (`bench:claims` in tools/bench).
 *
 * The log: lines `+<date ms> <id as JSON>` (claimed) and `-<id as JSON>` (released), appended in
 * groups: the lines of one turn of the event loop go out with one write(2) on the next turn, and
 * each claim resolves once its line is written (segment-files.ts, which the recent log shares). The
 * log is cut into segment files by time; a segment is deleted once all of its claims expired, so
 * it never needs rewriting. Opening replays the segments in order, then starts a new one.
 */
export function createClaimLog(options: ClaimLogOptions): ClaimSet & { close(): Promise<void> } {
  const { clock } = options;
  const memory = createClaimMemory(options);
  const segments = createClaimSegments(options);
  let opening: Promise<void> | undefined;
  let isOpen = false;
  let isClosed = false;

  async function replay(): Promise<void> {
    if (options.formerDatafile) rmSync(options.formerDatafile, { force: true });
    const nowMs = clock.now().getTime();
    await segments.replay(nowMs, (line) => {
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
    async has(id) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the claim log is closed');
      return memory.holds(id, clock.now().getTime());
    },
    async claimedAt(id) {
      if (!isOpen) await ready();
      if (isClosed) throw new Error('the claim log is closed');
      const atMs = memory.claimedAtMs(id, clock.now().getTime());
      return atMs === undefined ? null : new Date(atMs);
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
  /** The date (epoch ms) of the live claim that holds the id, if one does. */
  claimedAtMs(id: string, nowMs: number): number | undefined;
  /** Records a claim (a live one only: an expired one is dropped). */
  remember(id: string, atMs: number, nowMs: number): void;
  /** False when nothing held it. */
  forget(id: string): boolean;
}

/**
 * Expiry needs no timer: the table keeps claims in claim order, so expired claims are dropped from
 * its front as claims come in, and a lookup checks the date. The claims are typed arrays, not a Map
 * (claim-table.ts): ~30 bytes a claim outside the V8 heap instead of ~100 on it.
 */
function createClaimMemory(options: ClaimLogOptions): ClaimMemory {
  const { expireAfterMs, maxClaims, log, dir } = options;
  const claims = createClaimTable();
  let forgotten = 0;
  let lastWarningMs = -Infinity;
  const isLive = (atMs: number, nowMs: number) => atMs + expireAfterMs >= nowMs;

  function pruneExpired(nowMs: number): void {
    for (;;) {
      const oldestAtMs = claims.oldestAtMs();
      if (oldestAtMs === undefined || isLive(oldestAtMs, nowMs)) return;
      claims.dropOldest();
    }
  }

  /** The bound counts the holes released claims leave in the queue too: they take its memory. */
  function keepBound(nowMs: number): void {
    if (claims.length <= maxClaims) return;
    while (claims.length > maxClaims) if (claims.dropOldest()) forgotten += 1;
    if (nowMs - lastWarningMs < 60_000) return;
    lastWarningMs = nowMs;
    log.warn({ dir, maxClaims, forgotten }, 'too many claims held: the oldest are forgotten before they expire');
  }

  function liveAtMs(id: string, nowMs: number): number | undefined {
    const position = claims.find(id);
    if (position < 0) return undefined;
    const atMs = claims.atMs(position);
    return isLive(atMs, nowMs) ? atMs : undefined;
  }

  return {
    holds(id, nowMs) {
      pruneExpired(nowMs);
      return liveAtMs(id, nowMs) !== undefined;
    },
    claimedAtMs: liveAtMs,
    remember(id, atMs, nowMs) {
      // a claim taken again goes to the end: it is the newest now
      const position = claims.find(id);
      if (position >= 0) claims.remove(position);
      if (!isLive(atMs, nowMs)) return;
      claims.add(id, atMs);
      keepBound(nowMs);
    },
    forget(id) {
      const position = claims.find(id);
      if (position < 0) return false;
      claims.remove(position);
      return true;
    },
  };
}

type LogLine = { kind: 'claimed'; id: string; atMs: number } | { kind: 'released'; id: string };

/** The log's segment files, begun anew by time and deleted once all their claims expired. */
interface ClaimSegments {
  /** Reads every segment in order (at open, before any append). */
  replay(nowMs: number, apply: (line: LogLine) => void): Promise<void>;
  /** Resolves once the line is written; `atMs` is its claim date (-Infinity for a release). */
  append(line: string, atMs: number): Promise<void>;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

function createClaimSegments(options: ClaimLogOptions): ClaimSegments {
  const { expireAfterMs, clock } = options;
  const segmentMs = options.segmentMs ?? Math.max(1000, Math.floor(expireAfterMs / 10));
  /** Each segment's latest claim date (-Infinity: only releases). */
  const newestAtMs = new Map<number, number>();
  let current: { seq: number; openedAtMs: number } | undefined;
  /** The latest claim date among the buffered lines. */
  let bufferNewestAtMs = -Infinity;
  /** The time of the write under way. */
  let writeNowMs = 0;
  const isLive = (atMs: number, nowMs: number) => atMs + expireAfterMs >= nowMs;
  const files = createSegmentFiles({
    dir: options.dir,
    label: 'claim log',
    log: options.log,
    beforeWrite() {
      writeNowMs = clock.now().getTime();
      if (!current || writeNowMs - current.openedAtMs < segmentMs) return;
      current = undefined;
      files.sealCurrent();
    },
    afterWrite(seq) {
      if (current?.seq !== seq) current = { seq, openedAtMs: writeNowMs };
      newestAtMs.set(seq, Math.max(newestAtMs.get(seq) ?? -Infinity, bufferNewestAtMs));
      bufferNewestAtMs = -Infinity;
      dropExpiredSegments(writeNowMs);
    },
  });

  /** Deletes the oldest sealed segments whose claims have all expired. */
  function dropExpiredSegments(nowMs: number): void {
    for (const seq of files.sealed()) {
      if (isLive(newestAtMs.get(seq) ?? -Infinity, nowMs)) return;
      void files.delete(seq); // in the thread pool; close() waits for it
      newestAtMs.delete(seq);
    }
  }

  return {
    async replay(nowMs, apply) {
      // a segment holds `segmentMs` of claims at most (~2.6 MB a minute at 1,000 a second)
      await files.open(parseLine, (line, seq) => {
        if (line.kind === 'claimed') newestAtMs.set(seq, Math.max(newestAtMs.get(seq) ?? -Infinity, line.atMs));
        apply(line);
      });
      dropExpiredSegments(nowMs);
    },
    append(line, atMs) {
      bufferNewestAtMs = Math.max(bufferNewestAtMs, atMs);
      return files.append(line);
    },
    close: () => files.close(),
  };
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
    // a date is whole milliseconds (Date's): a line with any other is not one this log wrote
    return Number.isSafeInteger(atMs) && typeof id === 'string' ? { kind: 'claimed', id, atMs } : undefined;
  } catch {
    return undefined;
  }
}
