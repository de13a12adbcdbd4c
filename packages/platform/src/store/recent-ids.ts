import { createClaimTable } from './claim-table';

/**
 * Ids seen lately (chat message ids, bus event ids), each remembered for a while, outside the V8
 * heap: a claim table (claim-table.ts) without its log. A `Set<string>` of the same ids keeps every
 * id's string alive for the whole window (seconds to minutes), so each is promoted to the old
 * generation and fills it towards the next full collection; and once the Set's table holds tens of
 * thousands of entries, each rehash allocates a new one of up to a megabyte straight in the old
 * generation (docs/performance.md, "Recent ids off the heap"). Here an id of a known 128-bit shape
 * (a UUID or ULID after a prefix such as `chat:`) is 16 bytes in a typed array, compared exactly.
 */
export interface RecentIds {
  /** Whether `id` was seen within the window, as of `nowMs`. */
  has(id: string, nowMs: number): boolean;
  /** Remembers `id` as seen at `nowMs`; an id seen before is dated `nowMs` from now on. */
  add(id: string, nowMs: number): void;
  /** True the first time `id` is seen within the window (it is remembered then); false after. */
  isNew(id: string, nowMs: number): boolean;
  /** Ids remembered. */
  readonly size: number;
}

export interface RecentIdsOptions {
  /** At most this many are remembered: beyond it the oldest are forgotten first. */
  maxIds: number;
  /** Each is forgotten this long after it was seen; without it, only `maxIds` forgets. */
  keepMs?: number;
}

export function createRecentIds({ maxIds, keepMs = Infinity }: RecentIdsOptions): RecentIds {
  if (!Number.isInteger(maxIds) || maxIds < 1) throw new Error(`recent ids hold at least one id (asked: ${maxIds})`);
  const table = createClaimTable();

  /** Forgets the ids past their time, and the oldest beyond maxIds (a hole left by a re-add goes as it is reached). */
  function forget(nowMs: number): void {
    for (let oldest = table.oldestAtMs(); oldest !== undefined; oldest = table.oldestAtMs()) {
      if (oldest > nowMs - keepMs && table.size <= maxIds) return;
      table.dropOldest();
    }
  }

  function add(id: string, atMs: number): void {
    const position = table.find(id);
    if (position >= 0) table.remove(position);
    table.add(id, atMs);
    forget(atMs);
  }

  return {
    get size() {
      return table.size;
    },
    has(id, nowMs) {
      forget(Math.trunc(nowMs));
      return table.find(id) >= 0;
    },
    add: (id, nowMs) => add(id, Math.trunc(nowMs)),
    isNew(id, nowMs) {
      const atMs = Math.trunc(nowMs);
      forget(atMs);
      if (table.find(id) >= 0) return false;
      table.add(id, atMs);
      forget(atMs);
      return true;
    },
  };
}
