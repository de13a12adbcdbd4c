/**
 * Ids of a known 128-bit shape as their bits: a ULID (Kick's `Kick-Event-Message-Id`) or a
 * lowercase UUID (Kick's chat message ids, bus event ids) after an optional prefix such as
 * `reply:` is a kind (shape and prefix, one byte) and 4 words of 32 bits, which typed arrays hold
 * outside the V8 heap; any other id stays a string. The encoding is exact both ways: two different
 * ids never share a (kind, bits) pair, and `decode` gives the id back. Used by the claim table
 * (claim-table.ts) and the recent log's memory (recent-memory.ts).
 */

/** Kind 0 is a hole; 1..maxPrefixes*2 a prefix with a ULID or UUID after it; `stringKind` a plain string. */
export const stringKind = 255;
const maxPrefixes = 100;
const ulidShape = 0;
const uuidShape = 1;

/** Crockford base32 as ULIDs write it (uppercase; no I, L, O, U), by value. */
const ulidCodes = Buffer.from('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 'latin1');
/** Lowercase hex, by value (an uppercase UUID is a different string: kept as a string). */
const hexCodes = Buffer.from('0123456789abcdef', 'latin1');

/** Char code → value in the alphabet, -1 if none. */
function valuesOf(codes: Buffer): Int8Array {
  const values = new Int8Array(128).fill(-1);
  codes.forEach((code, value) => {
    values[code] = value;
  });
  return values;
}

const ulidValues = valuesOf(ulidCodes);
const hexValues = valuesOf(hexCodes);

/** 32-bit finaliser (MurmurHash3's fmix32). */
function mix(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** Turns an id into its kind and 128 bits (or keeps it as a string), and hashes that. */
export class IdEncoder {
  /** The id last encoded: its bits, its kind, the id itself. */
  readonly key = new Uint32Array(4);
  kind = 0;
  text = '';
  private hash = 0;
  private readonly prefixes = new Map<string, number>();
  /** The prefixes by their index (the kind's upper bits), for decode. */
  private readonly prefixList: string[] = [];

  /** Encodes `id` into key/kind/text; returns its hash (a claim's add right after its find encodes once). */
  encode(id: string): number {
    if (this.kind !== 0 && id === this.text) return this.hash;
    this.text = id;
    this.kind = this.encodeTail(id, 36, uuidShape) || this.encodeTail(id, 26, ulidShape) || stringKind;
    const key = this.key;
    this.hash =
      this.kind === stringKind
        ? hashString(id)
        : hashWords(this.kind, key[0] as number, key[1] as number, key[2] as number, key[3] as number);
    return this.hash;
  }

  /**
   * The id this encoder encoded as `kind` and the 4 words from `words[at]`: the inverse of
   * `encode` for every kind but `stringKind` (whose text the holder keeps).
   */
  decode(kind: number, words: Uint32Array, at: number): string {
    const prefix = this.prefixList[(kind - 1) >> 1];
    if (kind === stringKind || prefix === undefined) throw new Error(`no id of kind ${kind} was encoded here`);
    const shape = (kind - 1) & 1;
    return prefix + (shape === uuidShape ? writeUuid(words, at) : writeUlid(words, at));
  }

  /** The kind when `id` ends in the shape (writing its bits into `key`), else 0. */
  private encodeTail(id: string, shapeLength: number, shape: number): number {
    const start = id.length - shapeLength;
    if (start < 0) return 0;
    if (!(shape === uuidShape ? readUuid(id, start, this.key) : readUlid(id, start, this.key))) return 0;
    const prefix = start === 0 ? '' : id.slice(0, start);
    let prefixIndex = this.prefixes.get(prefix);
    if (prefixIndex === undefined) {
      if (this.prefixes.size >= maxPrefixes) return 0;
      prefixIndex = this.prefixes.size;
      this.prefixes.set(prefix, prefixIndex);
      this.prefixList.push(prefix);
    }
    return 1 + prefixIndex * 2 + shape;
  }
}

/** 8-4-4-4-12 lowercase hex digits: 4 words of 8 digits. */
function readUuid(id: string, start: number, key: Uint32Array): boolean {
  let word = 0;
  let digits = 0;
  for (let i = 0; i < 36; i++) {
    const code = id.charCodeAt(start + i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 45 /* - */) return false;
      continue;
    }
    const value = code < 128 ? (hexValues[code] as number) : -1;
    if (value < 0) return false;
    word = (word << 4) | value;
    if (++digits % 8 === 0) {
      key[digits / 8 - 1] = word;
      word = 0;
    }
  }
  return true;
}

/** 26 base32 characters, the first at most 7: 3 + 25 × 5 = 128 bits, packed into 4 words. */
function readUlid(id: string, start: number, key: Uint32Array): boolean {
  let word = 0;
  let filled = 0;
  let written = 0;
  for (let i = 0; i < 26; i++) {
    const code = id.charCodeAt(start + i);
    const value = code < 128 ? (ulidValues[code] as number) : -1;
    if (value < 0 || (i === 0 && value > 7)) return false;
    const bits = i === 0 ? 3 : 5;
    const room = 32 - filled;
    if (bits <= room) {
      word = (word << bits) | value;
      filled += bits;
    } else {
      // the value's high bits end this word, its low bits begin the next
      key[written++] = (word << room) | (value >>> (bits - room));
      word = value & ((1 << (bits - room)) - 1);
      filled = bits - room;
    }
    if (filled === 32) {
      key[written++] = word;
      word = 0;
      filled = 0;
    }
  }
  return written === 4;
}

/** The characters of a decoded id are written here, then read as one string (no string per character). */
const scratch = Buffer.alloc(36);

/** The UUID readUuid read into the 4 words from `at`. */
function writeUuid(words: Uint32Array, at: number): string {
  let length = 0;
  for (let w = 0; w < 4; w++) {
    const word = words[at + w] as number;
    for (let shift = 28; shift >= 0; shift -= 4) {
      if (length === 8 || length === 13 || length === 18 || length === 23) scratch[length++] = 45; // -
      scratch[length++] = hexCodes[(word >>> shift) & 15] as number;
    }
  }
  return scratch.toString('latin1', 0, length);
}

/** The ULID readUlid read into the 4 words from `at`: 3 bits, then 25 times 5, from the top. */
function writeUlid(words: Uint32Array, at: number): string {
  let bit = 0;
  for (let i = 0; i < 26; i++) {
    const bits = i === 0 ? 3 : 5;
    let value = 0;
    for (let b = 0; b < bits; b++, bit++) {
      const word = words[at + (bit >>> 5)] as number;
      value = (value << 1) | ((word >>> (31 - (bit & 31))) & 1);
    }
    scratch[i] = ulidCodes[value] as number;
  }
  return scratch.toString('latin1', 0, 26);
}

export function hashString(id: string): number {
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return mix(hash ^ stringKind);
}

export function hashWords(kind: number, w0: number, w1: number, w2: number, w3: number): number {
  let hash = Math.imul(kind, 0x9e3779b1);
  hash = Math.imul(hash ^ w0, 0x85ebca6b);
  hash = Math.imul(hash ^ w1, 0xc2b2ae35);
  hash = Math.imul(hash ^ w2, 0x85ebca6b);
  hash = Math.imul(hash ^ w3, 0xc2b2ae35);
  return mix(hash);
}
