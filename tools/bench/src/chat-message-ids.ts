/**
 * The chat message id (a UUID) of each delivery of a phase, to find which delivery a bot reply
 * answers, kept as 16 bytes per id in typed arrays with an open-addressing hash table: a
 * Map<string, number> of 315,000 UUID strings (a five-minute phase) is ~30 MB of old space that each
 * of the generator's mark-compacts would trace (see request-arena.ts for why that matters).
 */

const hex = (code: number): number => {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87; // a-f
  return -1;
};

export class ChatMessageIndex {
  private readonly ids: Uint8Array;
  /** Open addressing, linear probing: a message's index, or −1 for an empty slot. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly scratch = new Uint8Array(16);

  constructor(readonly capacity: number) {
    this.ids = new Uint8Array(capacity * 16);
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  /** Remembers `uuid` (8-4-4-4-12 hex digits) as the id of message `index`. */
  set(index: number, uuid: string): void {
    if (!(Number.isInteger(index) && index >= 0 && index < this.capacity)) {
      throw new RangeError(`message ${index} is outside 0…${this.capacity - 1}`);
    }
    if (!this.parse(uuid)) throw new Error(`not a UUID: ${uuid}`);
    if (this.find() >= 0) throw new Error(`${uuid} is known already`);
    this.ids.set(this.scratch, index * 16);
    let slot = this.hash() & this.mask;
    while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
    this.slots[slot] = index;
  }

  /** The message whose id is `id`, or −1 (not one of ours, or not a UUID). */
  indexOf(id: string): number {
    return this.parse(id) ? this.find() : -1;
  }

  /** The UUID's 16 bytes into `scratch`; false when it is not a UUID. */
  private parse(uuid: string): boolean {
    if (uuid.length !== 36) return false;
    let byte = 0;
    for (let i = 0; i < 36; i++) {
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (uuid.charCodeAt(i) !== 45) return false; // '-'
        continue;
      }
      const high = hex(uuid.charCodeAt(i));
      const low = hex(uuid.charCodeAt(++i));
      if (high < 0 || low < 0) return false;
      this.scratch[byte++] = (high << 4) | low;
    }
    return true;
  }

  /** From the UUID's last four bytes (random in a v4 UUID, as randomUUID makes them). */
  private hash(): number {
    const s = this.scratch;
    const word = ((s[12] as number) << 24) | ((s[13] as number) << 16) | ((s[14] as number) << 8) | (s[15] as number);
    return Math.imul(word, 0x9e3779b1) >>> 0;
  }

  private find(): number {
    let slot = this.hash() & this.mask;
    for (;;) {
      const index = this.slots[slot] as number;
      if (index === -1) return -1;
      if (this.matches(index)) return index;
      slot = (slot + 1) & this.mask;
    }
  }

  private matches(index: number): boolean {
    const at = index * 16;
    for (let k = 0; k < 16; k++) if (this.ids[at + k] !== this.scratch[k]) return false;
    return true;
  }
}
