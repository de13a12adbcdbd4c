import { IdEncoder, stringKind } from './id-bits';

/**
 * What the recent log (recent-log.ts) keeps in memory: each key's newest entries, in order of `at`
 * then id, at most `keepPerKey` a key, each as its id (its bits), its id's hash, its date and where its JSON
 * text is (segment, byte offset, byte length), in typed arrays per key: no object per entry. An
 * entry whose line is not written yet has its text here until the write tells where it went.
 */

/**
 * Entries in parallel arrays, oldest first (copies, for reads and compactions): each is its id,
 * its date and where its JSON text is: `lengths` bytes from byte `offsets` of segment `segs`, or,
 * while its line is not written (`segs` -1), in `texts` (undefined for the others until read).
 */
export interface Entries {
  ids: string[];
  ats: number[];
  segs: number[];
  offsets: number[];
  lengths: number[];
  texts: Array<string | undefined>;
}

export const emptyEntries = (): Entries => ({ ids: [], ats: [], segs: [], offsets: [], lengths: [], texts: [] });

/**
 * Every key's held entries at one moment: copied (typed arrays, a memcpy each) when it is taken,
 * made into `Entries` a key at a time when asked (a compaction yields in between).
 */
export type Snapshot = Array<{ key: string; entries(): Entries }>;

/** Where a compaction wrote a key's entries: in its segment, for each entry of the snapshot. */
export interface Moved {
  offsets: number[];
  lengths: number[];
}

export interface RecentMemory {
  /**
   * Adds an entry whose line is being written, its text held meanwhile. Returns the number `place`
   * is to be told, or why it changed nothing: the id is held already (`held`), or the entry is
   * older than a full key's (`older`).
   */
  insertPending(key: string, id: string, atMs: number, text: string): number | 'held' | 'older';
  /** Adds an entry whose text is on disk (replay); false when it changed nothing. */
  insertPlaced(key: string, id: string, atMs: number, seg: number, offset: number, length: number): boolean;
  /**
   * The line of the entry `insertPending` numbered `pending` was written there: its text is
   * dropped from memory (a no-op if the entry was pushed out, or already placed by a compaction).
   */
  place(key: string, id: string, pending: number, seg: number, offset: number, length: number): void;
  /** The key's newest `limit` entries. */
  recent(key: string, limit: number): Entries;
  /** The key's entries with `fromMs` ≤ at < `toMs`. */
  between(key: string, fromMs: number, toMs: number): Entries;
  /** How many entries are held, over all keys. */
  size(): number;
  /** The segments the held entries' texts are in. */
  segmentsInUse(): Set<number>;
  snapshot(): Snapshot;
  /**
   * A compaction wrote the key's entries of a snapshot to segment `seg`: each of them still held
   * as it was then is pointed there.
   */
  relocate(key: string, entries: Entries, seg: number, moved: Moved): void;
}

/** The segment of an entry whose line is not written yet: its offset slot holds its pending text's number. */
const inMemory = -1;

/**
 * One key's entries, oldest first, in typed arrays of `capacity` entries (grown by doubling up to
 * keepPerKey + 1). An entry's id is its bits (id-bits.ts: a chat line's UUID is 16 bytes outside
 * the V8 heap, where its string cost ~60 bytes of heap that every full collection marked, for as
 * long as the line is held: 100 lines of each channel); an id of no known shape is kept as its
 * string in `plainIds`.
 */
interface KeyEntries {
  count: number;
  /** Two slots an entry: its date (ms) and its text's byte offset (or pending text's number). */
  numbers: Float64Array;
  /**
   * Four slots an entry: its id's hash (an append looks for its id among the key's 100 or so by
   * these first: comparing the ids themselves cost ~10 µs an append, a cache miss each), its
   * segment (inMemory while pending), its text's length in bytes, and its id's kind.
   */
  ints: Int32Array;
  /** Four slots an entry: its id's bits (unused for a plain id). */
  words: Uint32Array;
  /** Each entry's id if it is kept as a string, once the key has held one (same order). */
  plainIds?: Array<string | undefined>;
}

const atOf = (held: KeyEntries, i: number) => held.numbers[2 * i] as number;
const offsetOf = (held: KeyEntries, i: number) => held.numbers[2 * i + 1] as number;
const hashOf = (held: KeyEntries, i: number) => held.ints[4 * i] as number;
const segOf = (held: KeyEntries, i: number) => held.ints[4 * i + 1] as number;
const lengthOf = (held: KeyEntries, i: number) => held.ints[4 * i + 2] as number;
const kindOf = (held: KeyEntries, i: number) => held.ints[4 * i + 3] as number;

function setPlace(held: KeyEntries, i: number, seg: number, offset: number, length: number): void {
  held.numbers[2 * i + 1] = offset;
  held.ints[4 * i + 1] = seg;
  held.ints[4 * i + 2] = length;
}

/** The id of entry `i` as a string. */
function idAt(held: KeyEntries, i: number, encoder: IdEncoder): string {
  const kind = kindOf(held, i);
  return kind === stringKind ? (held.plainIds?.[i] as string) : encoder.decode(kind, held.words, 4 * i);
}

/** Whether entry `i` holds the id the encoder encoded last. */
function holdsEncoded(held: KeyEntries, i: number, encoder: IdEncoder): boolean {
  if (kindOf(held, i) !== encoder.kind) return false;
  if (encoder.kind === stringKind) return held.plainIds?.[i] === encoder.text;
  const { words } = held;
  const { key } = encoder;
  const at = 4 * i;
  return words[at] === key[0] && words[at + 1] === key[1] && words[at + 2] === key[2] && words[at + 3] === key[3];
}

/** The index of the entry holding the id the encoder encoded last (with that hash), or -1. */
function indexOfEncoded(held: KeyEntries, hash: number, encoder: IdEncoder): number {
  for (let i = held.count - 1; i >= 0; i--) if (hashOf(held, i) === hash && holdsEncoded(held, i, encoder)) return i;
  return -1;
}

/** Whether (atMs, id) comes before entry `i`: by date, then by id (decoded only for a tie of dates). */
function isBeforeEntry(atMs: number, id: string, held: KeyEntries, i: number, encoder: IdEncoder): boolean {
  const otherAtMs = atOf(held, i);
  return atMs < otherAtMs || (atMs === otherAtMs && id < idAt(held, i, encoder));
}

/** Whether entry `i` comes before (atMs, id). */
function isEntryBefore(held: KeyEntries, i: number, atMs: number, id: string, encoder: IdEncoder): boolean {
  const otherAtMs = atOf(held, i);
  return otherAtMs < atMs || (otherAtMs === atMs && idAt(held, i, encoder) < id);
}

const initialCapacity = 4;

function newKeyEntries(): KeyEntries {
  return {
    count: 0,
    numbers: new Float64Array(2 * initialCapacity),
    ints: new Int32Array(4 * initialCapacity),
    words: new Uint32Array(4 * initialCapacity),
  };
}

/** Room for one more entry. */
function makeRoom(held: KeyEntries, maxCapacity: number): void {
  const capacity = held.numbers.length / 2;
  if (held.count < capacity) return;
  const grown = Math.max(held.count + 1, Math.min(maxCapacity, capacity * 2));
  const numbers = new Float64Array(2 * grown);
  numbers.set(held.numbers);
  const ints = new Int32Array(4 * grown);
  ints.set(held.ints);
  const words = new Uint32Array(4 * grown);
  words.set(held.words);
  held.numbers = numbers;
  held.ints = ints;
  held.words = words;
}

/** Puts an entry for the id the encoder encoded last at `at` (the ones from there on move up one). */
function insertAt(
  held: KeyEntries,
  at: number,
  encoder: IdEncoder,
  entry: { hash: number; atMs: number; seg: number; offset: number; length: number },
): void {
  const count = held.count;
  held.numbers.copyWithin(2 * (at + 1), 2 * at, 2 * count);
  held.ints.copyWithin(4 * (at + 1), 4 * at, 4 * count);
  held.words.copyWithin(4 * (at + 1), 4 * at, 4 * count);
  held.numbers[2 * at] = entry.atMs;
  held.ints[4 * at] = entry.hash;
  held.ints[4 * at + 3] = encoder.kind;
  setPlace(held, at, entry.seg, entry.offset, entry.length);
  const isPlain = encoder.kind === stringKind;
  if (!isPlain) held.words.set(encoder.key, 4 * at);
  if (isPlain && !held.plainIds) held.plainIds = new Array<string | undefined>(count).fill(undefined);
  held.plainIds?.splice(at, 0, isPlain ? encoder.text : undefined);
  held.count = count + 1;
}

function dropOldest(held: KeyEntries): void {
  const count = held.count;
  held.numbers.copyWithin(0, 2, 2 * count);
  held.ints.copyWithin(0, 4, 4 * count);
  held.words.copyWithin(0, 4, 4 * count);
  held.plainIds?.shift();
  held.count = count - 1;
  // a key whose plain ids have all gone back to bits drops the array
  if (held.plainIds && !held.plainIds.some((id) => id !== undefined)) delete held.plainIds;
}

/** The index of the key's first entry at or after `atMs` (the count when none is). */
function firstAtOrAfter(held: KeyEntries, atMs: number): number {
  let low = 0;
  let high = held.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (atOf(held, middle) < atMs) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Copies of the key's entries from `from` on (up to `to`, excluded), the texts of pending ones
 * filled in (from `texts`).
 */
function entriesOf(
  held: KeyEntries,
  from: number,
  texts: Map<number, string>,
  encoder: IdEncoder,
  to = held.count,
): Entries {
  const entries = emptyEntries();
  for (let i = from; i < to; i++) {
    entries.ids.push(idAt(held, i, encoder));
    entries.ats.push(atOf(held, i));
    entries.segs.push(segOf(held, i));
    entries.offsets.push(offsetOf(held, i));
    entries.lengths.push(lengthOf(held, i));
    entries.texts.push(segOf(held, i) === inMemory ? texts.get(offsetOf(held, i)) : undefined);
  }
  return entries;
}

/**
 * Points each entry of a snapshot of the key still held as it was then at its place in a
 * compaction's segment (the pending text of one that was pending is dropped from `pending`).
 */
function relocateKey(
  held: KeyEntries,
  entries: Entries,
  seg: number,
  moved: Moved,
  pending: Map<number, string>,
  encoder: IdEncoder,
): void {
  // both in order of at, then id: one walk through the key's entries
  let j = 0;
  for (let i = 0; i < entries.ids.length; i++) {
    const atMs = entries.ats[i] as number;
    const id = entries.ids[i] as string;
    while (j < held.count && isEntryBefore(held, j, atMs, id, encoder)) j += 1;
    if (j === held.count) return;
    encoder.encode(id);
    if (atOf(held, j) !== atMs || !holdsEncoded(held, j, encoder)) continue; // pushed out since
    // placed since (a pending one), or pushed out and appended again
    if (segOf(held, j) !== entries.segs[i] || offsetOf(held, j) !== entries.offsets[i]) continue;
    if (segOf(held, j) === inMemory) pending.delete(offsetOf(held, j));
    setPlace(held, j, seg, moved.offsets[i] as number, moved.lengths[i] as number);
  }
}

/** A copy of the key's entries as they are now (a memcpy a typed array). */
function copyOf({ count, numbers, ints, words, plainIds }: KeyEntries): KeyEntries {
  return {
    count,
    numbers: numbers.slice(0, 2 * count),
    ints: ints.slice(0, 4 * count),
    words: words.slice(0, 4 * count),
    ...(plainIds && { plainIds: plainIds.slice() }),
  };
}

function segmentsOf(keys: Iterable<KeyEntries>): Set<number> {
  const segs = new Set<number>();
  for (const held of keys) for (let i = 0; i < held.count; i++) segs.add(segOf(held, i));
  return segs;
}

export function createRecentMemory(keepPerKey: number): RecentMemory {
  const byKey = new Map<string, KeyEntries>();
  /** The texts of the entries whose line is not written yet, by number. */
  let pending = new Map<number, string>();
  /**
   * A new Map once it empties (each write empties it): an old Map's table is resized in the old
   * generation, at every fill and drain (docs/performance.md, "Garbage made in the old generation").
   */
  const dropPending = (number: number) => {
    pending.delete(number);
    if (pending.size === 0) pending = new Map();
  };
  let nextPending = 0;
  let size = 0;
  /** The ids' bits: one encoder for every key, so a kind means one prefix and shape throughout. */
  const encoder = new IdEncoder();

  type Inserted = 'added' | 'held' | 'older';
  function insert(key: string, id: string, atMs: number, seg: number, offset: number, length: number): Inserted {
    let held = byKey.get(key);
    if (!held) {
      held = newKeyEntries();
      byKey.set(key, held);
    }
    // a scan of at most keepPerKey hashes: cheaper in memory than a Set per key (~40 bytes an entry)
    const hash = encoder.encode(id) | 0; // as the Int32Array holds it
    if (indexOfEncoded(held, hash, encoder) >= 0) return 'held';
    // lines come in order mostly: the place is found from the end
    let at = held.count;
    while (at > 0 && isBeforeEntry(atMs, id, held, at - 1, encoder)) at -= 1;
    if (at === 0 && held.count >= keepPerKey) return 'older'; // older than every kept entry
    makeRoom(held, keepPerKey + 1);
    insertAt(held, at, encoder, { hash, atMs, seg, offset, length });
    size += 1;
    if (held.count > keepPerKey) {
      if (segOf(held, 0) === inMemory) dropPending(offsetOf(held, 0));
      dropOldest(held);
      size -= 1;
    }
    return 'added';
  }

  return {
    insertPending(key, id, atMs, text) {
      const number = nextPending;
      const inserted = insert(key, id, atMs, inMemory, number, 0);
      if (inserted !== 'added') return inserted;
      nextPending += 1;
      pending.set(number, text);
      return number;
    },
    insertPlaced: (key, id, atMs, seg, offset, length) => insert(key, id, atMs, seg, offset, length) === 'added',
    place(key, id, number, seg, offset, length) {
      const held = byKey.get(key);
      if (!held) return;
      const i = indexOfEncoded(held, encoder.encode(id) | 0, encoder);
      // pushed out (and maybe appended again since: its own line tells where it is), or placed
      if (i < 0 || segOf(held, i) !== inMemory || offsetOf(held, i) !== number) return;
      setPlace(held, i, seg, offset, length);
      dropPending(number);
    },
    recent(key, limit) {
      const held = byKey.get(key);
      if (!held || limit <= 0) return emptyEntries();
      return entriesOf(held, Math.max(0, held.count - limit), pending, encoder);
    },
    between(key, fromMs, toMs) {
      const held = byKey.get(key);
      if (!held || fromMs >= toMs) return emptyEntries();
      return entriesOf(held, firstAtOrAfter(held, fromMs), pending, encoder, firstAtOrAfter(held, toMs));
    },
    size: () => size,
    segmentsInUse: () => segmentsOf(byKey.values()),
    snapshot() {
      const texts = new Map(pending);
      return Array.from(byKey, ([key, held]) => {
        const copy = copyOf(held);
        return { key, entries: () => entriesOf(copy, 0, texts, encoder) };
      });
    },
    relocate(key, entries, seg, moved) {
      const held = byKey.get(key);
      if (held) relocateKey(held, entries, seg, moved, pending, encoder);
    },
  };
}
