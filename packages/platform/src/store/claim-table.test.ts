import { seededRandom } from '../random';
import { hexAlphabet, randomUlid as ulidOf, randomUuid as uuidOf, ulidAlphabet } from '../testing/random-ids';
import { createClaimTable } from './claim-table';

const heldIds = (table: ReturnType<typeof createClaimTable>, ids: readonly string[]) =>
  ids.filter((id) => table.find(id) >= 0);

describe('the claim table (claim-table.ts)', () => {
  test('when ids of every shape are added, then each is found with its date and nothing else is', () => {
    const table = createClaimTable();
    const ids = [
      '01HZX3Q8M4K2N7P9R5T6V8W0YZ', // ULID
      '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', // the largest ULID
      '00000000000000000000000000',
      '9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1', // UUID
      'reply:9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1', // a prefix and a UUID
      'warning:01HZX3Q8M4K2N7P9R5T6V8W0YZ',
      'h_0f3a', // anything else: kept as its string
      '',
    ];
    ids.forEach((id, n) => table.add(id, 1000 + n));
    ids.forEach((id, n) => expect(table.atMs(table.find(id))).toBe(1000 + n));
    expect(table.size).toBe(ids.length);
    const others = [
      '01hzx3q8m4k2n7p9r5t6v8w0yz', // the ULID in lowercase is another string
      '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', // past 128 bits: a string
      '9C1E0F7A-2B44-4C1D-8A53-51F0C2D0B6E1', // the UUID in uppercase
      'reply:01HZX3Q8M4K2N7P9R5T6V8W0YZ', // a known prefix with the other shape
      'replY:9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1',
      'x9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1',
      '9c1e0f7a2b444c1d8a5351f0c2d0b6e1',
      'h_0f3b',
      ' ',
    ];
    expect(heldIds(table, others)).toEqual([]);
  });

  test('when any one character of a held ULID or UUID is changed, then the changed id is not held', () => {
    const random = seededRandom(7);
    const table = createClaimTable();
    const ulid = ulidOf(random);
    const uuid = `event:${uuidOf(random)}`;
    table.add(ulid, 1);
    table.add(uuid, 2);
    const variants: string[] = [];
    for (let i = 0; i < ulid.length; i++) {
      for (const letter of ulidAlphabet) {
        if (letter !== ulid[i]) variants.push(ulid.slice(0, i) + letter + ulid.slice(i + 1));
      }
    }
    for (let i = 0; i < uuid.length; i++) {
      for (const letter of `${hexAlphabet}-:t`) {
        if (letter !== uuid[i]) variants.push(uuid.slice(0, i) + letter + uuid.slice(i + 1));
      }
    }
    expect(variants.length).toBeGreaterThan(1000);
    expect(heldIds(table, variants)).toEqual([]);
    expect(heldIds(table, [ulid, uuid])).toEqual([ulid, uuid]);
  });

  test('when claims are removed and dropped from the front, then the table agrees with a Map at every step', () => {
    const random = seededRandom(42);
    const table = createClaimTable();
    const reference = new Map<string, number>();
    const order: Array<{ id: string; atMs: number }> = []; // claim order, as the table's queue (holes too)
    const pool: string[] = [];
    const newId = () => {
      const pick = random();
      if (pick < 0.4) return ulidOf(random);
      if (pick < 0.7) return `reply:${uuidOf(random)}`;
      if (pick < 0.9) return uuidOf(random);
      return `plain-${Math.floor(random() * 1e9)}`;
    };
    /** Whether the queue entry is a claim (not a hole a removed claim left), removing it. */
    const dropFromReference = (entry: { id: string; atMs: number }) =>
      reference.get(entry.id) === entry.atMs && reference.delete(entry.id);
    for (let step = 0; step < 60_000; step++) {
      const action = random();
      if (action < 0.55 || pool.length === 0) {
        const id = pool.length > 0 && random() < 0.1 ? (pool[Math.floor(random() * pool.length)] as string) : newId();
        if (reference.has(id)) continue;
        table.add(id, step);
        reference.set(id, step);
        order.push({ id, atMs: step });
        pool.push(id);
      } else if (action < 0.7) {
        const id = pool[Math.floor(random() * pool.length)] as string;
        const position = table.find(id);
        if (position >= 0 !== reference.has(id)) throw new Error(`${id}: found ${position}`);
        if (position >= 0) {
          table.remove(position);
          reference.delete(id);
        }
      } else {
        // drop the front (a claim or a hole), as expiry does
        const oldest = order.shift();
        if (oldest === undefined) continue;
        if (table.dropOldest() !== dropFromReference(oldest)) throw new Error(`front ${oldest.id} at step ${step}`);
      }
      if (step % 5_000 === 0) {
        const disagreeing = pool.filter((id) => {
          const position = table.find(id);
          return (position >= 0 ? table.atMs(position) : undefined) !== reference.get(id);
        });
        expect(disagreeing).toEqual([]);
      }
    }
    expect(table.size).toBe(reference.size);
    expect(table.length).toBe(order.length);
    for (const [id, atMs] of reference) expect(table.atMs(table.find(id))).toBe(atMs);
    for (const oldest of order.splice(0)) expect(table.dropOldest()).toBe(dropFromReference(oldest));
    expect(table.size).toBe(0);
    expect(table.oldestAtMs()).toBeUndefined();
    expect(heldIds(table, pool)).toEqual([]);
  });

  test('when the front is a released claim, then it shows as a hole, dropped as expired', () => {
    const table = createClaimTable();
    table.add('a', 5);
    table.add('b', 6);
    expect(table.oldestAtMs()).toBe(5);
    table.remove(table.find('a'));
    expect(table.oldestAtMs()).toBe(-Infinity);
    expect(table.length).toBe(2);
    expect(table.dropOldest()).toBe(false);
    expect(table.oldestAtMs()).toBe(6);
    expect(table.dropOldest()).toBe(true);
    expect(table.dropOldest()).toBe(false);
    expect(table.length).toBe(0);
  });

  test('when claims are dated weeks apart, then each keeps its exact date and the far one starts a chunk of its own', () => {
    const table = createClaimTable();
    const day = 24 * 60 * 60 * 1000;
    const start = Date.UTC(2026, 10, 28, 6, 0, 0, 123);
    const dated: Array<[string, number]> = [
      ['first', start],
      ['a day before it', start - day],
      ['24 days after it', start + 24 * day + 7],
      ['25 days after it', start + 25 * day + 9], // past 2^31 ms from the chunk's first: a new chunk
      ['back near the first', start + 1], // 25 days before that chunk's first: another one
    ];
    for (const [id, atMs] of dated) table.add(id, atMs);
    expect(dated.map(([id]) => table.atMs(table.find(id)))).toEqual(dated.map(([, atMs]) => atMs));
    // the rest of the first two chunks became holes: 2 × 4,096 + the claim of the third
    expect(table.size).toBe(5);
    expect(table.length).toBe(2 * 4096 + 1);
    const fronts: Array<number | undefined> = [];
    while (table.length > 0) {
      fronts.push(table.oldestAtMs());
      table.dropOldest();
    }
    expect(fronts.filter((atMs) => atMs !== -Infinity)).toEqual(dated.map(([, atMs]) => atMs));
    expect(() => table.add('fraction', start + 0.5)).toThrow("a claim's date must be whole milliseconds, not");
  });

  test('when more prefixes come than it encodes, then ids with new prefixes are kept as strings, still exact', () => {
    const random = seededRandom(3);
    const table = createClaimTable();
    const uuid = uuidOf(random);
    const ids = Array.from({ length: 150 }, (_, n) => `p${n}:${uuid}`);
    ids.forEach((id, n) => table.add(id, n));
    ids.forEach((id, n) => expect(table.atMs(table.find(id))).toBe(n));
    expect(heldIds(table, [`p150:${uuid}`, uuid])).toEqual([]);
  });
});
