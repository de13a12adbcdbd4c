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

/**
 * One spool's settings and mutable state. The spool's parts (writer, reader, recovery, forwarding)
 * are module-level functions taking it explicitly, so each does one job.
 */
interface SpoolState {
  readonly dir: string;
  readonly maxBytes: number;
  readonly segmentBytes: number;
  readonly commitDelayMs: number;
  readonly disk: SpoolDisk;
  readonly log: Logger;
  readonly cursorFile: string;
  /** Oldest first; the last one is the one appended to (when `active` is set). */
  segments: Segment[];
  active: { segment: Segment; file: AppendFile } | undefined;
  cursor: SpoolPosition;
  nextSeq: number;
  waiting: Waiting[];
  waitingBytes: number;
  writingBytes: number;
  commitTimer: NodeJS.Timeout | undefined;
  /** The write in progress, or the spool's reset: one at a time. */
  exclusive: Promise<void>;
  isOpen: boolean;
  lock: SpoolLock | undefined;
}

export function createSpool(options: SpoolOptions): Spool {
  const state: SpoolState = {
    dir: options.dir,
    maxBytes: options.maxBytes,
    segmentBytes: options.segmentBytes ?? 4 * 1024 * 1024,
    commitDelayMs: options.commitDelayMs ?? 2,
    disk: options.disk ?? nodeSpoolDisk,
    log: options.log ?? createSilentLogger(),
    cursorFile: path.join(options.dir, cursorFileName),
    segments: [],
    active: undefined,
    cursor: { segment: 0, offset: 0 },
    nextSeq: 0,
    waiting: [],
    waitingBytes: 0,
    writingBytes: 0,
    commitTimer: undefined,
    exclusive: Promise.resolve(),
    isOpen: false,
    lock: undefined,
  };
  const held = (): number => heldBytes(state);
  return {
    open: () => openSpool(state, options.lock),
    append: (record) => append(state, record),
    read: (maxRecords) => readRecords(state, maxRecords),
    forwarded: (end) => withExclusive(state, () => markForwarded(state, end)),
    isEmpty: () => held() === 0,
    heldBytes: held,
    freeBytes: () => Math.max(0, state.maxBytes - held()),
    close: () => closeSpool(state),
  };
}

function segmentFile(dir: string, seq: number): string {
  return path.join(dir, `${String(seq).padStart(12, '0')}.spool`);
}

function unforwardedBytes(state: SpoolState): number {
  let bytes = 0;
  for (const segment of state.segments) {
    if (segment.seq > state.cursor.segment) bytes += segment.size;
    else if (segment.seq === state.cursor.segment) bytes += Math.max(0, segment.size - state.cursor.offset);
  }
  return bytes;
}

function heldBytes(state: SpoolState): number {
  return unforwardedBytes(state) + state.waitingBytes + state.writingBytes;
}

function withExclusive<T>(state: SpoolState, action: () => Promise<T>): Promise<T> {
  const result = state.exclusive.then(action);
  state.exclusive = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}

/** Loads what an earlier process left: the cursor, then each segment cut to its intact records. */
async function openSpool(state: SpoolState, lockOptions: SpoolLockOptions | false | undefined): Promise<void> {
  const { disk, dir, log } = state;
  await disk.ensureDir(dir);
  if (lockOptions !== false) state.lock = await lockSpoolDir(dir, lockOptions);
  state.cursor = await readCursor(state);
  const found = (await disk.list(dir))
    .map((name) => segmentPattern.exec(name)?.[1])
    .filter((seq): seq is string => seq !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  state.segments = [];
  for (const seq of found) {
    const file = segmentFile(dir, seq);
    if (seq < state.cursor.segment) {
      await disk.remove(file); // forwarded before the crash, not yet deleted
      continue;
    }
    const size = await disk.size(file);
    const valid = await validLength(disk, file);
    if (valid < size) {
      log.warn({ file, keptBytes: valid, cutBytes: size - valid }, 'spool: a torn end was cut off');
      await disk.truncate(file, valid);
    }
    state.segments.push({ seq, file, size: valid });
    if (seq === state.cursor.segment && state.cursor.offset > valid) state.cursor = { segment: seq, offset: valid };
  }
  const first = state.segments[0];
  if (first && first.seq > state.cursor.segment) state.cursor = { segment: first.seq, offset: 0 };
  state.nextSeq = Math.max(state.cursor.segment, ...state.segments.map((segment) => segment.seq)) + 1;
  state.isOpen = true;
  const held = unforwardedBytes(state);
  if (held > 0) log.info({ dir, bytes: held }, 'spool: messages left by an earlier run will be forwarded');
}

async function readCursor(state: SpoolState): Promise<SpoolPosition> {
  try {
    const text = Buffer.from(await state.disk.read(state.cursorFile, 0, 1024)).toString('utf8');
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
    state.log.warn({ dir: state.dir }, 'spool: the cursor is unreadable; forwarding everything held again');
  } catch (error) {
    if (!isMissingFile(error)) throw error;
  }
  return { segment: 0, offset: 0 };
}

/** The length of the whole, intact records at the start of the file. */
async function validLength(disk: SpoolDisk, file: string): Promise<number> {
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

function append(state: SpoolState, record: SpoolRecord): Promise<void> {
  if (!state.isOpen) return Promise.reject(new Error('The spool is not open'));
  const bytes = encodeSpoolRecord(record);
  if (heldBytes(state) + bytes.length > state.maxBytes) return Promise.reject(new SpoolFullError(state.maxBytes));
  return new Promise<void>((resolve, reject) => {
    state.waiting.push({ bytes, resolve, reject });
    state.waitingBytes += bytes.length;
    scheduleCommit(state);
  });
}

function scheduleCommit(state: SpoolState): void {
  if (state.commitTimer !== undefined || state.waiting.length === 0) return;
  state.commitTimer = setTimeout(() => {
    state.commitTimer = undefined;
    void withExclusive(state, () => commit(state));
  }, state.commitDelayMs);
}

/** Writes and fsyncs everything waiting, as one batch. */
async function commit(state: SpoolState): Promise<void> {
  const batch = state.waiting;
  state.waiting = [];
  state.writingBytes = state.waitingBytes;
  state.waitingBytes = 0;
  if (batch.length === 0) return;
  const bytes = Buffer.concat(batch.map((entry) => entry.bytes));
  try {
    const target = await activeSegment(state);
    await target.file.append(bytes);
    await target.file.sync();
    target.segment.size += bytes.length;
    for (const entry of batch) entry.resolve();
  } catch (error) {
    state.log.error({ err: error, dir: state.dir, records: batch.length }, 'spool: a batch could not be written');
    // whatever part of the batch reached the file ends that segment; the next batch starts a new one
    const failed = state.active;
    state.active = undefined;
    await failed?.file.close().catch(() => undefined);
    // best effort: a refused batch is better not forwarded either (if it stays, it is at least once)
    if (failed) await state.disk.truncate(failed.segment.file, failed.segment.size).catch(() => undefined);
    for (const entry of batch) entry.reject(error);
  } finally {
    state.writingBytes = 0;
    scheduleCommit(state);
  }
}

async function activeSegment(state: SpoolState): Promise<{ segment: Segment; file: AppendFile }> {
  const { active, disk, dir } = state;
  if (active && active.segment.size < state.segmentBytes) return active;
  if (active) await active.file.close();
  state.active = undefined;
  const segment: Segment = { seq: state.nextSeq, file: segmentFile(dir, state.nextSeq), size: 0 };
  const file = await disk.openAppend(segment.file);
  state.nextSeq++;
  try {
    await disk.syncDir(dir); // the new file's name must survive a crash too
  } catch (error) {
    await file.close().catch(() => undefined);
    throw error;
  }
  state.segments.push(segment);
  state.active = { segment, file };
  return state.active;
}

/** Up to `maxRecords` records from the cursor on, oldest first. */
async function readRecords(state: SpoolState, maxRecords: number): Promise<SpooledRecord[]> {
  const { disk, log } = state;
  const records: SpooledRecord[] = [];
  let position = { ...state.cursor };
  for (const segment of state.segments) {
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
}

/** Moves the cursor to `end`, deletes the segments wholly behind it, and starts afresh when all is forwarded. */
async function markForwarded(state: SpoolState, end: SpoolPosition): Promise<void> {
  const { disk } = state;
  if (
    end.segment < state.cursor.segment ||
    (end.segment === state.cursor.segment && end.offset <= state.cursor.offset)
  ) {
    return;
  }
  state.cursor = { ...end };
  // the end of a segment that is no longer written to is the start of the next one
  const index = state.segments.findIndex((segment) => segment.seq === state.cursor.segment);
  const next = state.segments[index + 1];
  if (index >= 0 && next && state.cursor.offset >= (state.segments[index]?.size ?? 0)) {
    state.cursor = { segment: next.seq, offset: 0 };
  }
  for (const segment of state.segments.filter((each) => each.seq < state.cursor.segment)) {
    await disk.remove(segment.file);
  }
  state.segments = state.segments.filter((segment) => segment.seq >= state.cursor.segment);
  const isAllForwarded = unforwardedBytes(state) === 0 && state.waiting.length === 0;
  if (isAllForwarded) {
    // start afresh: the next append opens a new segment
    const last = state.active;
    state.active = undefined;
    await last?.file.close();
    for (const segment of state.segments) await disk.remove(segment.file);
    state.segments = [];
    state.cursor = { segment: state.nextSeq, offset: 0 };
  }
  await disk.replace(state.cursorFile, JSON.stringify(state.cursor));
}

async function closeSpool(state: SpoolState): Promise<void> {
  if (!state.isOpen) return;
  state.isOpen = false;
  clearTimeout(state.commitTimer);
  state.commitTimer = undefined;
  await withExclusive(state, () => commit(state));
  await withExclusive(state, async () => {
    const last = state.active;
    state.active = undefined;
    await last?.file.close();
  });
  await state.lock?.release();
  state.lock = undefined;
}

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
