/**
 * The names a day bucket holds already, as the flush needs them: only "is this name in the bucket?"
 * and "how many names does it hold?" (for the caps, analyticsLimits). Held as 32-bit hashes in an
 * open-addressing table (linear probing, doubled at 3/4 full), ~5–11 bytes a name instead of ~33
 * for a Set of the strings: 1,000 channels' day buckets at the 5,000-name cap take ~33 MB instead
 * of ~164 MB (docs/performance.md, "Stream analytics in memory").
 *
 * Two names with the same hash are taken as one (at most ~0.3 % of buckets of 5,000 names hold
 * such a pair). The second name is then "held already": its lines are written under its own name
 * and it is not counted towards the cap, so a bucket may end up holding one name more than its cap
 * per such pair, or name a newcomer's lines once the cap is reached. Every line is still counted
 * exactly once: under its chatter's name or as unnamed (docs/analytics.md, "Unique chatters are
 * exact up to the caps").
 */

/** 32-bit FNV-1a over the UTF-16 code units, then murmur3's finaliser so that the low bits (the slot) are mixed; never 0. */
export function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index += 1) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  // 0 marks an empty slot
  return hash >>> 0 || 1;
}

const initialSlots = 16;

export class NameHashSet {
  /** Hashes; 0 is an empty slot. Its length is a power of two, at most 3/4 of it used. */
  private slots = new Uint32Array(initialSlots);
  private held = 0;
  private readonly hash: (name: string) => number;

  /** `hash` is for tests that need names to collide. */
  constructor(names: Iterable<string> = [], hash: (name: string) => number = hashName) {
    // a hash of the tests' may be 0 (an empty slot) or negative (unequal to its Uint32Array copy)
    this.hash = hash === hashName ? hash : (name) => hash(name) >>> 0 || 1;
    for (const name of names) this.admit(name, Infinity);
  }

  /** How many distinct hashes are held. */
  get size(): number {
    return this.held;
  }

  has(name: string): boolean {
    return this.slots[this.slotOf(this.hash(name))] !== 0;
  }

  /**
   * Whether the name is kept by name: true when it is held already, or fewer than `cap` are held
   * and it is added now; false when the cap is reached (nothing changes).
   */
  admit(name: string, cap: number): boolean {
    const hash = this.hash(name);
    let slot = this.slotOf(hash);
    if (this.slots[slot] !== 0) return true;
    if (this.held >= cap) return false;
    if ((this.held + 1) * 4 > this.slots.length * 3) {
      this.grow();
      slot = this.slotOf(hash);
    }
    this.slots[slot] = hash;
    this.held += 1;
    return true;
  }

  /** The slot holding `hash`, or the empty slot where it would go. */
  private slotOf(hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0 && this.slots[slot] !== hash) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (const hash of old) if (hash !== 0) this.slots[this.slotOf(hash)] = hash;
  }
}
