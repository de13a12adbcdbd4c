import path from 'node:path';
import { crc32 } from 'node:zlib';
import { createSilentLogger, type Logger } from '../log/logger';
import { nodeSpoolDisk, type AppendFile, type SpoolDisk } from './spool-disk';
import { lockSpoolDir, type SpoolLock, type SpoolLockOptions } from './spool-lock';

/**
 * An append-only spool on disk for bus messages that the bus could not take in time: a message is
 * durable once `append` resolves (its batch was fsynced), and is read back in append order until
 * `forwarded` says it reached the bus.
 *
 * Layout in `dir`: segment files `<12-digit sequence>.spool`, appended to one at a time and
 * rotated at `segmentBytes`, `cursor.json`, the first byte not yet forwarded, and `owner.lock`,
 * the one process that may use the directory (spool-lock.ts). A record is
 * `[u32 body length][u32 crc32 of body][body]`, body = `[u16 topic length][topic][u16 key length][key][value]`.
 *
 * - Group commit: appends wait `commitDelayMs` for company, then one write and one fsync serve the
 *   whole batch. A failed write or fsync fails that batch only; the next batch starts a new
 *   segment, so the torn bytes end a segment and never sit in front of good records.
 * - Crash safety: on open, each segment is read up to its first incomplete or corrupt record (the
 *   torn end of a batch the crash interrupted) and cut there. Nothing in that batch was
 *   acknowledged, so nothing acknowledged is lost.
 * - The cursor is written (not fsynced) after each forwarded batch: a cursor lost in a crash sends
 *   some records again (at least once; consumers dedupe by event id), it never skips one.
 * - Segments wholly forwarded are deleted; once everything is forwarded, the spool starts afresh.
 * - `maxBytes` bounds what is held (written and waiting): an append beyond it throws SpoolFullError.
 */

export interface SpoolRecord {
  topic: string;
  key: string;
  /** The encoded message. */
  value: Uint8Array;
}

/** A place in the spool: a segment and a byte offset in it. */
export interface SpoolPosition {
  segment: number;
  offset: number;
}

/** A record read back, with the position right after it (to say "forwarded up to here"). */
export interface SpooledRecord extends SpoolRecord {
  end: SpoolPosition;
}

export interface SpoolOptions {
  dir: string;
  /** The most bytes held at once (records not yet forwarded, headers included). */
  maxBytes: number;
  /** A segment is closed and the next one begun past this size; 4 MiB unless told. */
  segmentBytes?: number;
  /** How long an append waits for others to share its fsync; 2 ms unless told. */
  commitDelayMs?: number;
  disk?: SpoolDisk;
  /** Who may hold the directory (spool-lock.ts); false: no lock (a test's fake disk). */
  lock?: SpoolLockOptions | false;
  log?: Logger;
}

export interface Spool {
  /** Loads what an earlier process left, cutting off a torn last record. Call once, before anything else. */
  open(): Promise<void>;
  /** Resolves once the record is on disk (fsynced). Throws SpoolFullError, or the disk's error. */
  append(record: SpoolRecord): Promise<void>;
  /** Up to `maxRecords` records not yet forwarded, oldest first (only those on disk already). */
  read(maxRecords: number): Promise<SpooledRecord[]>;
  /** Everything before `end` reached the bus: it is not read again, and its space is freed. */
  forwarded(end: SpoolPosition): Promise<void>;
  /** Nothing is held: nothing waits to be written, nor to be forwarded. */
  isEmpty(): boolean;
  /** Bytes held: written and not forwarded, plus waiting to be written. */
  heldBytes(): number;
  /** Room left before appends are refused (`maxBytes` less what is held). */
  freeBytes(): number;
  /** Writes what waits, then closes the file. What is held stays for the next open. */
  close(): Promise<void>;
}

export class SpoolFullError extends Error {
  constructor(maxBytes: number) {
    super(`The spool is full (${maxBytes} bytes held)`);
    this.name = 'SpoolFullError';
  }
}

const headerBytes = 8;
const readChunkBytes = 256 * 1024;
const cursorFileName = 'cursor.json';
const segmentPattern = /^(\d{12})\.spool$/;

export function encodeSpoolRecord(record: SpoolRecord): Buffer {
  const topic = Buffer.from(record.topic, 'utf8');
  const key = Buffer.from(record.key, 'utf8');
  if (topic.length > 0xffff || key.length > 0xffff) throw new Error('A spool record topic or key is over 64 KiB');
  const body = Buffer.alloc(2 + topic.length + 2 + key.length + record.value.length);
  let at = body.writeUInt16BE(topic.length, 0);
  at += topic.copy(body, at);
  at = body.writeUInt16BE(key.length, at);
  at += key.copy(body, at);
  body.set(record.value, at);
  const header = Buffer.alloc(headerBytes);
  header.writeUInt32BE(body.length, 0);
  header.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([header, body]);
}

type Parsed =
  | { kind: 'record'; record: SpoolRecord; length: number }
  /** The bytes end before the record does: read more, or (at the end of a file) a torn record. */
  | { kind: 'incomplete'; needed: number }
  | { kind: 'corrupt' };

/** The record at the start of `bytes`. */
export function parseSpoolRecord(bytes: Uint8Array): Parsed {
  if (bytes.length < headerBytes) return { kind: 'incomplete', needed: headerBytes };
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bodyLength = view.readUInt32BE(0);
  const length = headerBytes + bodyLength;
  if (view.length < length) return { kind: 'incomplete', needed: length };
  const body = view.subarray(headerBytes, length);
  if (crc32(body) !== view.readUInt32BE(4) || body.length < 4) return { kind: 'corrupt' };
  const topicLength = body.readUInt16BE(0);
  const keyAt = 2 + topicLength;
  if (keyAt + 2 > body.length) return { kind: 'corrupt' };
  const keyLength = body.readUInt16BE(keyAt);
  const valueAt = keyAt + 2 + keyLength;
  if (valueAt > body.length) return { kind: 'corrupt' };
  return {
    kind: 'record',
    record: {
      topic: body.toString('utf8', 2, keyAt),
      key: body.toString('utf8', keyAt + 2, valueAt),
      value: new Uint8Array(body.subarray(valueAt)),
    },
    length,
  };
}

interface Segment {
  seq: number;
  file: string;
  /** Bytes on disk that hold whole, fsynced records. */
  size: number;
}

interface Waiting {
  bytes: Buffer;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createSpool(options: SpoolOptions): Spool {
  const { dir, maxBytes } = options;
  const segmentBytes = options.segmentBytes ?? 4 * 1024 * 1024;
  const commitDelayMs = options.commitDelayMs ?? 2;
  const disk = options.disk ?? nodeSpoolDisk;
  const log = options.log ?? createSilentLogger();
  const cursorFile = path.join(dir, cursorFileName);

  /** Oldest first; the last one is the one appended to (when `active` is set). */
  let segments: Segment[] = [];
  let active: { segment: Segment; file: AppendFile } | undefined;
  let cursor: SpoolPosition = { segment: 0, offset: 0 };
  let nextSeq = 0;
  let waiting: Waiting[] = [];
  let waitingBytes = 0;
  let writingBytes = 0;
  let commitTimer: NodeJS.Timeout | undefined;
  /** The write in progress, or the spool's reset: one at a time. */
  let exclusive: Promise<void> = Promise.resolve();
  let isOpen = false;
  let lock: SpoolLock | undefined;

  const segmentFile = (seq: number): string => path.join(dir, `${String(seq).padStart(12, '0')}.spool`);

  function unforwardedBytes(): number {
    let bytes = 0;
    for (const segment of segments) {
      if (segment.seq > cursor.segment) bytes += segment.size;
      else if (segment.seq === cursor.segment) bytes += Math.max(0, segment.size - cursor.offset);
    }
    return bytes;
  }

  function heldBytes(): number {
    return unforwardedBytes() + waitingBytes + writingBytes;
  }

  function withExclusive<T>(action: () => Promise<T>): Promise<T> {
    const result = exclusive.then(action);
    exclusive = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  function scheduleCommit(): void {
    if (commitTimer !== undefined || waiting.length === 0) return;
    commitTimer = setTimeout(() => {
      commitTimer = undefined;
      void withExclusive(commit);
    }, commitDelayMs);
  }

  /** Writes and fsyncs everything waiting, as one batch. */
  async function commit(): Promise<void> {
    const batch = waiting;
    waiting = [];
    writingBytes = waitingBytes;
    waitingBytes = 0;
    if (batch.length === 0) return;
    const bytes = Buffer.concat(batch.map((entry) => entry.bytes));
    try {
      const target = await activeSegment();
      await target.file.append(bytes);
      await target.file.sync();
      target.segment.size += bytes.length;
      for (const entry of batch) entry.resolve();
    } catch (error) {
      log.error({ err: error, dir, records: batch.length }, 'spool: a batch could not be written');
      // whatever part of the batch reached the file ends that segment; the next batch starts a new one
      const failed = active;
      active = undefined;
      await failed?.file.close().catch(() => undefined);
      // best effort: a refused batch is better not forwarded either (if it stays, it is at least once)
      if (failed) await disk.truncate(failed.segment.file, failed.segment.size).catch(() => undefined);
      for (const entry of batch) entry.reject(error);
    } finally {
      writingBytes = 0;
      scheduleCommit();
    }
  }

  async function activeSegment(): Promise<{ segment: Segment; file: AppendFile }> {
    if (active && active.segment.size < segmentBytes) return active;
    if (active) await active.file.close();
    active = undefined;
    const segment: Segment = { seq: nextSeq, file: segmentFile(nextSeq), size: 0 };
    const file = await disk.openAppend(segment.file);
    nextSeq++;
    try {
      await disk.syncDir(dir); // the new file's name must survive a crash too
    } catch (error) {
      await file.close().catch(() => undefined);
      throw error;
    }
    segments.push(segment);
    active = { segment, file };
    return active;
  }

  async function readCursor(): Promise<SpoolPosition> {
    try {
      const text = Buffer.from(await disk.read(cursorFile, 0, 1024)).toString('utf8');
      const parsed: unknown = JSON.parse(text);
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'segment' in parsed &&
        'offset' in parsed &&
        Number.isSafeInteger(parsed.segment) &&
        Number.isSafeInteger(parsed.offset)
      ) {
        return { segment: Number(parsed.segment), offset: Number(parsed.offset) };
      }
      log.warn({ dir }, 'spool: the cursor is unreadable; forwarding everything held again');
    } catch (error) {
      if (!isMissingFile(error)) throw error;
    }
    return { segment: 0, offset: 0 };
  }

  /** The length of the whole, intact records at the start of the file. */
  async function validLength(file: string): Promise<number> {
    let offset = 0;
    for (;;) {
      const chunk = await disk.read(file, offset, readChunkBytes);
      if (chunk.length === 0) return offset;
      let at = 0;
      for (;;) {
        const parsed = parseSpoolRecord(chunk.subarray(at));
        if (parsed.kind === 'corrupt') return offset + at;
        if (parsed.kind === 'incomplete') {
          if (at === 0) {
            // one record longer than a chunk: read it whole
            const whole = await disk.read(file, offset, parsed.needed);
            if (whole.length < parsed.needed) return offset;
            if (parseSpoolRecord(whole).kind !== 'record') return offset;
            at = parsed.needed;
          }
          break;
        }
        at += parsed.length;
      }
      offset += at;
    }
  }

  async function writeCursor(): Promise<void> {
    await disk.replace(cursorFile, JSON.stringify(cursor));
  }

  return {
    async open() {
      await disk.ensureDir(dir);
      if (options.lock !== false) lock = await lockSpoolDir(dir, options.lock);
      cursor = await readCursor();
      const found = (await disk.list(dir))
        .map((name) => segmentPattern.exec(name)?.[1])
        .filter((seq): seq is string => seq !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
      segments = [];
      for (const seq of found) {
        const file = segmentFile(seq);
        if (seq < cursor.segment) {
          await disk.remove(file); // forwarded before the crash, not yet deleted
          continue;
        }
        const size = await disk.size(file);
        const valid = await validLength(file);
        if (valid < size) {
          log.warn({ file, keptBytes: valid, cutBytes: size - valid }, 'spool: a torn end was cut off');
          await disk.truncate(file, valid);
        }
        segments.push({ seq, file, size: valid });
        if (seq === cursor.segment && cursor.offset > valid) cursor = { segment: seq, offset: valid };
      }
      const first = segments[0];
      if (first && first.seq > cursor.segment) cursor = { segment: first.seq, offset: 0 };
      nextSeq = Math.max(cursor.segment, ...segments.map((segment) => segment.seq)) + 1;
      isOpen = true;
      const held = unforwardedBytes();
      if (held > 0) log.info({ dir, bytes: held }, 'spool: messages left by an earlier run will be forwarded');
    },

    append(record) {
      if (!isOpen) return Promise.reject(new Error('The spool is not open'));
      const bytes = encodeSpoolRecord(record);
      if (heldBytes() + bytes.length > maxBytes) return Promise.reject(new SpoolFullError(maxBytes));
      return new Promise<void>((resolve, reject) => {
        waiting.push({ bytes, resolve, reject });
        waitingBytes += bytes.length;
        scheduleCommit();
      });
    },

    async read(maxRecords) {
      const records: SpooledRecord[] = [];
      let position = { ...cursor };
      for (const segment of segments) {
        if (segment.seq < position.segment) continue;
        if (segment.seq > position.segment) position = { segment: segment.seq, offset: 0 };
        while (records.length < maxRecords && position.offset < segment.size) {
          const length = Math.min(readChunkBytes, segment.size - position.offset);
          let chunk = await disk.read(segment.file, position.offset, length);
          let at = 0;
          while (records.length < maxRecords) {
            const parsed = parseSpoolRecord(chunk.subarray(at));
            if (parsed.kind === 'incomplete' && at === 0 && position.offset + parsed.needed <= segment.size) {
              chunk = await disk.read(segment.file, position.offset, parsed.needed); // longer than a chunk
              continue;
            }
            if (parsed.kind === 'incomplete' && at > 0) break;
            if (parsed.kind !== 'record') {
              // fsynced bytes that changed since: the rest of this segment cannot be trusted
              log.error(
                { file: segment.file, offset: position.offset + at },
                'spool: corrupt record; skipping the rest of the segment',
              );
              at = segment.size - position.offset;
              break;
            }
            at += parsed.length;
            records.push({ ...parsed.record, end: { segment: segment.seq, offset: position.offset + at } });
          }
          position = { segment: segment.seq, offset: position.offset + at };
        }
        if (records.length >= maxRecords) break;
      }
      return records;
    },

    forwarded(end) {
      return withExclusive(async () => {
        if (end.segment < cursor.segment || (end.segment === cursor.segment && end.offset <= cursor.offset)) return;
        cursor = { ...end };
        // the end of a segment that is no longer written to is the start of the next one
        const index = segments.findIndex((segment) => segment.seq === cursor.segment);
        const next = segments[index + 1];
        if (index >= 0 && next && cursor.offset >= (segments[index]?.size ?? 0)) {
          cursor = { segment: next.seq, offset: 0 };
        }
        for (const segment of segments.filter((each) => each.seq < cursor.segment)) {
          await disk.remove(segment.file);
        }
        segments = segments.filter((segment) => segment.seq >= cursor.segment);
        const isAllForwarded = unforwardedBytes() === 0 && waiting.length === 0;
        if (isAllForwarded) {
          // start afresh: the next append opens a new segment
          const last = active;
          active = undefined;
          await last?.file.close();
          for (const segment of segments) await disk.remove(segment.file);
          segments = [];
          cursor = { segment: nextSeq, offset: 0 };
        }
        await writeCursor();
      });
    },

    isEmpty: () => heldBytes() === 0,
    heldBytes,
    freeBytes: () => Math.max(0, maxBytes - heldBytes()),

    async close() {
      if (!isOpen) return;
      isOpen = false;
      clearTimeout(commitTimer);
      commitTimer = undefined;
      await withExclusive(commit);
      await withExclusive(async () => {
        const last = active;
        active = undefined;
        await last?.file.close();
      });
      await lock?.release();
      lock = undefined;
    },
  };
}

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
