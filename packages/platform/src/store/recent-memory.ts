/**
 * What the recent log (recent-log.ts) keeps in memory: each key's newest entries, in order of `at`
 * then id, at most `keepPerKey` a key, each as its id, its id's hash, its date and where its JSON
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
 * One key's entries, oldest first: `ids` (a JS array) and, in the same order, typed arrays of
 * `capacity` entries (grown by doubling up to keepPerKey + 1).
 */
interface KeyEntries {
  ids: string[];
  /** Two slots an entry: its date (ms) and its text's byte offset (or pending text's number). */
  numbers: Float64Array;
  /**
   * Three slots an entry: its id's idHash (an append looks for its id among the key's 100 or so by
   * these first: scanning the id strings themselves cost ~10 µs an append, a cache miss each),
   * its segment (inMemory while pending) and its text's length in bytes.
   */
  ints: Int32Array;
}

const atOf = (held: KeyEntries, i: number) => held.numbers[2 * i] as number;
const offsetOf = (held: KeyEntries, i: number) => held.numbers[2 * i + 1] as number;
const hashOf = (held: KeyEntries, i: number) => held.ints[3 * i] as number;
const segOf = (held: KeyEntries, i: number) => held.ints[3 * i + 1] as number;
const lengthOf = (held: KeyEntries, i: number) => held.ints[3 * i + 2] as number;

function setPlace(held: KeyEntries, i: number, seg: number, offset: number, length: number): void {
  held.numbers[2 * i + 1] = offset;
  held.ints[3 * i + 1] = seg;
  held.ints[3 * i + 2] = length;
}

/** FNV-1a, 32 bits. */
function idHash(id: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash;
}

function indexOf(held: KeyEntries, id: string, hash: number): number {
  for (let i = held.ids.length - 1; i >= 0; i--) if (hashOf(held, i) === hash && held.ids[i] === id) return i;
  return -1;
}

const isBefore = (atMs: number, id: string, otherAtMs: number, otherId: string) =>
  atMs < otherAtMs || (atMs === otherAtMs && id < otherId);

const initialCapacity = 4;

function newKeyEntries(): KeyEntries {
  return { ids: [], numbers: new Float64Array(2 * initialCapacity), ints: new Int32Array(3 * initialCapacity) };
}

/** Room for one more entry. */
function makeRoom(held: KeyEntries, maxCapacity: number): void {
  const capacity = held.numbers.length / 2;
  if (held.ids.length < capacity) return;
  const grown = Math.max(held.ids.length + 1, Math.min(maxCapacity, capacity * 2));
  const numbers = new Float64Array(2 * grown);
  numbers.set(held.numbers);
  const ints = new Int32Array(3 * grown);
  ints.set(held.ints);
  held.numbers = numbers;
  held.ints = ints;
}

/** Puts an entry at `at` (the ones from there on move up one). */
function insertAt(
  held: KeyEntries,
  at: number,
  entry: { id: string; hash: number; atMs: number; seg: number; offset: number; length: number },
): void {
  const count = held.ids.length;
  held.numbers.copyWithin(2 * (at + 1), 2 * at, 2 * count);
  held.ints.copyWithin(3 * (at + 1), 3 * at, 3 * count);
  held.numbers[2 * at] = entry.atMs;
  held.ints[3 * at] = entry.hash;
  setPlace(held, at, entry.seg, entry.offset, entry.length);
  if (at === count) held.ids.push(entry.id);
  else held.ids.splice(at, 0, entry.id);
}

function dropOldest(held: KeyEntries): void {
  const count = held.ids.length;
  held.numbers.copyWithin(0, 2, 2 * count);
  held.ints.copyWithin(0, 3, 3 * count);
  held.ids.shift();
}

/** The index of the key's first entry at or after `atMs` (the count when none is). */
function firstAtOrAfter(held: KeyEntries, atMs: number): number {
  let low = 0;
  let high = held.ids.length;
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
function entriesOf(held: KeyEntries, from: number, texts: Map<number, string>, to = held.ids.length): Entries {
  const entries = emptyEntries();
  for (let i = from; i < to; i++) {
    entries.ids.push(held.ids[i] as string);
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
): void {
  // both in order of at, then id: one walk through the key's entries
  let j = 0;
  for (let i = 0; i < entries.ids.length; i++) {
    const atMs = entries.ats[i] as number;
    const id = entries.ids[i] as string;
    while (j < held.ids.length && isBefore(atOf(held, j), held.ids[j] as string, atMs, id)) j += 1;
    if (j === held.ids.length) return;
    if (atOf(held, j) !== atMs || held.ids[j] !== id) continue; // pushed out since
    // placed since (a pending one), or pushed out and appended again
    if (segOf(held, j) !== entries.segs[i] || offsetOf(held, j) !== entries.offsets[i]) continue;
    if (segOf(held, j) === inMemory) pending.delete(offsetOf(held, j));
    setPlace(held, j, seg, moved.offsets[i] as number, moved.lengths[i] as number);
  }
}

function segmentsOf(keys: Iterable<KeyEntries>): Set<number> {
  const segs = new Set<number>();
  for (const held of keys) for (let i = 0; i < held.ids.length; i++) segs.add(segOf(held, i));
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

  type Inserted = 'added' | 'held' | 'older';
  function insert(key: string, id: string, atMs: number, seg: number, offset: number, length: number): Inserted {
    let held = byKey.get(key);
    if (!held) {
      held = newKeyEntries();
      byKey.set(key, held);
    }
    // a scan of at most keepPerKey hashes: cheaper in memory than a Set per key (~40 bytes an entry)
    const hash = idHash(id);
    if (indexOf(held, id, hash) >= 0) return 'held';
    // lines come in order mostly: the place is found from the end
    let at = held.ids.length;
    while (at > 0 && isBefore(atMs, id, atOf(held, at - 1), held.ids[at - 1] as string)) at -= 1;
    if (at === 0 && held.ids.length >= keepPerKey) return 'older'; // older than every kept entry
    makeRoom(held, keepPerKey + 1);
    insertAt(held, at, { id, hash, atMs, seg, offset, length });
    size += 1;
    if (held.ids.length > keepPerKey) {
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
      const i = indexOf(held, id, idHash(id));
      // pushed out (and maybe appended again since: its own line tells where it is), or placed
      if (i < 0 || segOf(held, i) !== inMemory || offsetOf(held, i) !== number) return;
      setPlace(held, i, seg, offset, length);
      dropPending(number);
    },
    recent(key, limit) {
      const held = byKey.get(key);
      if (!held || limit <= 0) return emptyEntries();
      return entriesOf(held, Math.max(0, held.ids.length - limit), pending);
    },
    between(key, fromMs, toMs) {
      const held = byKey.get(key);
      if (!held || fromMs >= toMs) return emptyEntries();
      return entriesOf(held, firstAtOrAfter(held, fromMs), pending, firstAtOrAfter(held, toMs));
    },
    size: () => size,
    segmentsInUse: () => segmentsOf(byKey.values()),
    snapshot() {
      const texts = new Map(pending);
      return Array.from(byKey, ([key, { ids, numbers, ints }]) => {
        const copy = {
          ids: ids.slice(),
          numbers: numbers.slice(0, 2 * ids.length),
          ints: ints.slice(0, 3 * ids.length),
        };
        return { key, entries: () => entriesOf(copy, 0, texts) };
      });
    },
    relocate(key, entries, seg, moved) {
      const held = byKey.get(key);
      if (held) relocateKey(held, entries, seg, moved, pending);
    },
  };
}
