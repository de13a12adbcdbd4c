import { hashString, hashWords, IdEncoder, stringKind } from './id-bits';

/**
 * The claims of an embedded claim set, in typed arrays instead of a `Map<string, number>`: a Map
 * entry with its id string costs ~100 bytes of V8 heap a claim (600,000 of them for 10 minutes of
 * webhooks at 1,000 a second), and every full collection marks them all. Here a claim whose id has
 * a known 128-bit shape — a ULID (Kick's `Kick-Event-Message-Id`) or a lowercase UUID (Kick's chat
 * message ids, bus event ids) after an optional prefix such as `reply:` — is its 16 bytes, a kind
 * byte (shape and prefix) and its date (4 bytes, from the date of its chunk's first claim), ~27
 * bytes in all with its slot in the hash index, outside the V8 heap. The encoding is exact: two
 * different ids never share a (kind, bytes) pair, so a claim is never taken for another's (no hash
 * of the id is trusted: the index's hash only picks where to look, the bytes are compared). Any
 * other id is kept as its string.
 *
 * Claims sit in a queue in the order they were taken (fixed-size chunks, freed once the front has
 * passed them), so the oldest are dropped from the front without a timer; a released claim leaves
 * a hole there until the front passes it. The index is open addressing with linear probing over
 * the queue positions, grown and shrunk with the number of claims.
 */
export interface ClaimTable {
  /** The queue position of the claim held for `id`, or -1. */
  find(id: string): number;
  /** The claim date (epoch ms) at a position `find` returned. */
  atMs(position: number): number;
  /** Appends a claim (the caller has made sure no claim holds `id`); `atMs` in whole milliseconds. */
  add(id: string, atMs: number): void;
  /** Removes the claim at a position `find` returned (its place in the queue becomes a hole). */
  remove(position: number): void;
  /** The oldest claim's date (-Infinity for a hole at the front: dropped as expired), undefined when empty. */
  oldestAtMs(): number | undefined;
  /** Drops the front of the queue (a claim or a hole); true when it was a claim. */
  dropOldest(): boolean;
  /** Claims held. */
  readonly size: number;
  /** Claims held plus the holes left in between: what the queue's memory is sized by. */
  readonly length: number;
}

const chunkBits = 12;
/** 4,096 claims a chunk: 84 KB of typed arrays. */
const chunkSize = 1 << chunkBits;
const chunkMask = chunkSize - 1;
const minIndexSize = 1024;
const maxLoad = 0.7;
/** The index stores queue positions modulo this (the queue never holds this many). */
const positionModulo = 2 ** 31;

interface Chunk {
  /** 4 words of 32 bits a claim: its id's 128 bits (unused for a plain string). */
  words: Uint32Array;
  /**
   * Each claim's date as milliseconds from `baseMs`, the date of the chunk's first claim: half the
   * bytes of a Float64Array, still exact. A date more than ~24.8 days from it starts a new chunk
   * (ClaimQueue.push), which only claims that far apart within one chunk's 4,096 need.
   */
  at: Int32Array;
  baseMs: number;
  kind: Uint8Array;
  /** Only for the chunks that hold a plain string id. */
  strings?: Array<string | undefined>;
}

const fitsInt32 = (value: number): boolean => value >= -0x80000000 && value <= 0x7fffffff;

/** The claims in claim order, by queue position, in chunks freed once the front has passed them. */
class ClaimQueue {
  head = 0;
  tail = 0;
  private readonly chunks: Chunk[] = [];
  /** The queue position of `chunks[0]`'s first slot. */
  private chunkBase = 0;

  /** The queue position an index entry (a position modulo 2^31) stands for: they lie within [head, tail). */
  positionOf(stored: number): number {
    return this.head + ((stored - (this.head % positionModulo) + positionModulo) % positionModulo);
  }

  kindAt(position: number): number {
    return this.chunkOf(position).kind[position & chunkMask] as number;
  }

  atMsAt(position: number): number {
    const chunk = this.chunkOf(position);
    return chunk.baseMs + (chunk.at[position & chunkMask] as number);
  }

  hashAt(position: number): number {
    const chunk = this.chunkOf(position);
    const slot = position & chunkMask;
    const kind = chunk.kind[slot] as number;
    if (kind === stringKind) return hashString(chunk.strings?.[slot] ?? '');
    const words = chunk.words;
    const at = slot * 4;
    return hashWords(
      kind,
      words[at] as number,
      words[at + 1] as number,
      words[at + 2] as number,
      words[at + 3] as number,
    );
  }

  /** Whether the claim at `position` is the id the encoder encoded last. */
  holdsKey(position: number, encoder: IdEncoder): boolean {
    const chunk = this.chunkOf(position);
    const slot = position & chunkMask;
    if (chunk.kind[slot] !== encoder.kind) return false;
    if (encoder.kind === stringKind) return chunk.strings?.[slot] === encoder.text;
    const { words } = chunk;
    const { key } = encoder;
    const at = slot * 4;
    return words[at] === key[0] && words[at + 1] === key[1] && words[at + 2] === key[2] && words[at + 3] === key[3];
  }

  /** Appends the id the encoder encoded last; returns its position. */
  push(encoder: IdEncoder, atMs: number): number {
    if (!Number.isInteger(atMs)) throw new Error(`a claim's date must be whole milliseconds, not ${atMs}`);
    if (this.tail - this.chunkBase >= this.chunks.length * chunkSize) this.startChunk(atMs);
    let chunk = this.chunkOf(this.tail);
    if (!fitsInt32(atMs - chunk.baseMs)) {
      // the rest of this chunk becomes holes (kind 0, as a new chunk's slots are), dropped as expired
      this.tail = this.chunkBase + this.chunks.length * chunkSize;
      this.startChunk(atMs);
      chunk = this.chunkOf(this.tail);
    }
    const slot = this.tail & chunkMask;
    chunk.kind[slot] = encoder.kind;
    chunk.at[slot] = atMs - chunk.baseMs;
    if (encoder.kind === stringKind) {
      chunk.strings ??= new Array<string | undefined>(chunkSize);
      chunk.strings[slot] = encoder.text;
    } else {
      chunk.words.set(encoder.key, slot * 4);
    }
    return this.tail++;
  }

  private startChunk(baseMs: number): void {
    this.chunks.push({
      words: new Uint32Array(chunkSize * 4),
      at: new Int32Array(chunkSize),
      baseMs,
      kind: new Uint8Array(chunkSize),
    });
  }

  /** Makes the claim at `position` a hole. */
  clear(position: number): void {
    const chunk = this.chunkOf(position);
    const slot = position & chunkMask;
    chunk.kind[slot] = 0;
    if (chunk.strings) chunk.strings[slot] = undefined;
  }

  /** Moves the front on by one (its slot cleared already), freeing a chunk once passed. */
  shift(): void {
    this.head += 1;
    if (this.head - this.chunkBase < chunkSize) return;
    this.chunks.shift();
    this.chunkBase += chunkSize;
  }

  private chunkOf(position: number): Chunk {
    return this.chunks[(position - this.chunkBase) >>> chunkBits] as Chunk;
  }
}

export function createClaimTable(): ClaimTable {
  const queue = new ClaimQueue();
  const encoder = new IdEncoder();
  let size = 0;
  let index = new Int32Array(minIndexSize).fill(-1);
  let indexMask = minIndexSize - 1;

  function insertIntoIndex(position: number, hash: number): void {
    let at = hash & indexMask;
    while (index[at] !== -1) at = (at + 1) & indexMask;
    index[at] = position % positionModulo;
  }

  function rebuildIndex(indexSize: number): void {
    index = new Int32Array(indexSize).fill(-1);
    indexMask = indexSize - 1;
    for (let position = queue.head; position < queue.tail; position++) {
      if (queue.kindAt(position) !== 0) insertIntoIndex(position, queue.hashAt(position));
    }
  }

  /** Removes the index entry of `position`, shifting back the entries after it (no tombstones). */
  function removeFromIndex(position: number): void {
    const stored = position % positionModulo;
    let at = queue.hashAt(position) & indexMask;
    while (index[at] !== stored) at = (at + 1) & indexMask;
    let next = at;
    for (;;) {
      next = (next + 1) & indexMask;
      const moved = index[next] as number;
      if (moved === -1) break;
      const home = queue.hashAt(queue.positionOf(moved)) & indexMask;
      // the entry at `next` may fill the gap unless its home lies cyclically in (at, next]
      const staysPut = at <= next ? at < home && home <= next : at < home || home <= next;
      if (staysPut) continue;
      index[at] = moved;
      at = next;
    }
    index[at] = -1;
  }

  function remove(position: number): void {
    removeFromIndex(position);
    queue.clear(position);
    size -= 1;
  }

  return {
    get size() {
      return size;
    },
    get length() {
      return queue.tail - queue.head;
    },
    find(id) {
      let at = encoder.encode(id) & indexMask;
      for (;;) {
        const stored = index[at] as number;
        if (stored === -1) return -1;
        const position = queue.positionOf(stored);
        if (queue.holdsKey(position, encoder)) return position;
        at = (at + 1) & indexMask;
      }
    },
    atMs: (position) => queue.atMsAt(position),
    add(id, atMs) {
      // a chunk's worth of room: a date far from its chunk's first pads the chunk with holes
      if (queue.tail - queue.head >= positionModulo - chunkSize) throw new Error('claim table full');
      if (size + 1 > index.length * maxLoad) rebuildIndex(index.length * 2);
      const hash = encoder.encode(id);
      insertIntoIndex(queue.push(encoder, atMs), hash);
      size += 1;
    },
    remove,
    oldestAtMs() {
      if (queue.head === queue.tail) return undefined;
      return queue.kindAt(queue.head) === 0 ? -Infinity : queue.atMsAt(queue.head);
    },
    dropOldest() {
      if (queue.head === queue.tail) return false;
      const wasClaim = queue.kindAt(queue.head) !== 0;
      if (wasClaim) remove(queue.head);
      queue.shift();
      if (index.length > minIndexSize && size < index.length / 8) rebuildIndex(index.length / 2);
      return wasClaim;
    },
  };
}
