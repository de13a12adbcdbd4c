/**
 * The lines the bot posted lately, by channel and words, each kept `keepMs` and spent by one echo
 * (chat-sender.ts OwnLines: Kick may echo a line under another id than the one it returned).
 *
 * Why it is keyed and bounded this way: it was one list for the whole process, at most 1,000
 * entries, scanned for every viewer line; at 200 replies a second an entry lived ~5 s instead of
 * the 60 s asked for, so a late echo could be taken for a viewer's line, and each viewer line paid
 * a scan of up to 1,000 entries. Now a lookup is one Map access, and an entry lives its whole
 * window as long as at most `maxEntries` posts were made within it (100,000 by default: ~1,600
 * replies a second for 60 s, a few MB); beyond that the oldest go first, which bounds the memory.
 *
 * What it holds, and why in typed arrays: one string per distinct channel and words (the Map key,
 * to a key slot), per key slot how many of its posts are held and how many of those are spent, and
 * per post only its expiry and its key slot, in a ring in the order made. An object per post (the
 * post, its key string, a list per key, the queue's entries) came to ~60,000–90,000 heap objects at
 * 200 replies a second for 60 s, all of which every full collection on the owner thread marks;
 * typed arrays are a handful of objects however many posts they hold.
 *
 * Why counts are enough: a spend takes the oldest unspent post of its key, and the posts of a key
 * leave (expire or are evicted) oldest first, so the spent ones of a key are always its oldest held.
 */
export interface JustPosted {
  /** A post of `content` in `channel` at `nowMs`. */
  add(channel: string, content: string, nowMs: number): void;
  /** Spends the oldest live post of these words in this channel; true when there was one. */
  spend(channel: string, content: string, nowMs: number): boolean;
  /** Posts held: not expired yet (spent ones too), at most maxEntries. */
  size(): number;
}

export const defaultMaxJustPosted = 100_000;

/** Room at first, in the ring and in the key slots; each doubles when full, so a quiet process stays small. */
const initialCapacity = 1024;

export function createJustPosted(options: { keepMs: number; maxEntries?: number }): JustPosted {
  const { keepMs, maxEntries = defaultMaxJustPosted } = options;

  // add appends before it prunes, so the ring holds up to maxEntries + 1 for a moment
  const ringLimit = Number.isFinite(maxEntries) ? Math.max(1, Math.floor(maxEntries) + 1) : Infinity;

  /** Channel and words → their key slot, while any post of them is held. */
  const slotOfKey = new Map<string, number>();
  /** The key of each slot in use, to delete it from the Map when its last post leaves. */
  const keyOfSlot: (string | undefined)[] = [];
  const freeSlots: number[] = [];
  let slotCapacity = initialCapacity;
  /** Per key slot: its posts held, spent ones too. */
  let live: Int32Array = new Int32Array(slotCapacity);
  /** Per key slot: how many of its oldest held posts are spent. */
  let spent: Int32Array = new Int32Array(slotCapacity);

  /** Posts in the order made, so expiry times grow along the ring: [head, head + size) modulo its capacity. */
  let ringCapacity = Math.min(initialCapacity, ringLimit);
  let expiresAtMs = new Float64Array(ringCapacity);
  let slotOfPost = new Int32Array(ringCapacity);
  let head = 0;
  let size = 0;

  const keyOf = (channel: string, content: string) => `${channel}\n${content}`;

  function takeSlot(key: string): number {
    let slot = freeSlots.pop();
    if (slot === undefined) {
      slot = keyOfSlot.length;
      if (slot === slotCapacity) {
        slotCapacity *= 2;
        live = grown(live, slotCapacity);
        spent = grown(spent, slotCapacity);
      }
    }
    keyOfSlot[slot] = key;
    slotOfKey.set(key, slot);
    return slot;
  }

  function freeSlot(slot: number): void {
    slotOfKey.delete(keyOfSlot[slot] as string);
    // drop the string too, or a free slot would keep it alive
    keyOfSlot[slot] = undefined;
    freeSlots.push(slot);
  }

  /** Copies the posts to a ring twice as large (at most ringLimit), oldest at 0. */
  function growRing(): void {
    const capacity = Math.min(ringCapacity * 2, ringLimit);
    const nextExpiresAtMs = new Float64Array(capacity);
    const nextSlotOfPost = new Int32Array(capacity);
    for (let i = 0, at = head; i < size; i += 1, at = at + 1 === ringCapacity ? 0 : at + 1) {
      nextExpiresAtMs[i] = expiresAtMs[at] as number;
      nextSlotOfPost[i] = slotOfPost[at] as number;
    }
    expiresAtMs = nextExpiresAtMs;
    slotOfPost = nextSlotOfPost;
    ringCapacity = capacity;
    head = 0;
  }

  /** Drops the posts that expired, and the oldest beyond maxEntries. */
  function prune(nowMs: number): void {
    while (size > 0) {
      // `>` as written, not `<=` negated: a NaN expiry is dropped, as it always was
      if ((expiresAtMs[head] as number) > nowMs && size <= maxEntries) break;
      const slot = slotOfPost[head] as number;
      head = head + 1 === ringCapacity ? 0 : head + 1;
      size -= 1;
      const liveLeft = (live[slot] as number) - 1;
      live[slot] = liveLeft;
      // the post leaving is its key's oldest held, so it is a spent one if any are
      const spentHeld = spent[slot] as number;
      if (spentHeld > 0) spent[slot] = spentHeld - 1;
      if (liveLeft === 0) freeSlot(slot);
    }
  }

  return {
    add(channel, content, nowMs) {
      const key = keyOf(channel, content);
      const slot = slotOfKey.get(key) ?? takeSlot(key);
      live[slot] = (live[slot] as number) + 1;
      if (size === ringCapacity) growRing();
      let tail = head + size;
      if (tail >= ringCapacity) tail -= ringCapacity;
      expiresAtMs[tail] = nowMs + keepMs;
      slotOfPost[tail] = slot;
      size += 1;
      prune(nowMs);
    },
    spend(channel, content, nowMs) {
      prune(nowMs);
      const slot = slotOfKey.get(keyOf(channel, content));
      if (slot === undefined) return false;
      const spentHeld = spent[slot] as number;
      // after the prune every post held is live; the unspent ones are the newest
      if ((live[slot] as number) - spentHeld <= 0) return false;
      spent[slot] = spentHeld + 1;
      return true;
    },
    size: () => size,
  };
}

function grown(array: Int32Array, capacity: number): Int32Array {
  const next = new Int32Array(capacity);
  next.set(array);
  return next;
}
