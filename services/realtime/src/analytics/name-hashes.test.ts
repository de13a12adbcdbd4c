import { hashName, NameHashSet } from './name-hashes';

describe('NameHashSet', () => {
  test('when names are admitted under the cap, then each is held once and counted once', () => {
    const names = new NameHashSet();

    expect(names.admit('alice', 3)).toBe(true);
    expect(names.admit('bob', 3)).toBe(true);
    expect(names.admit('alice', 3)).toBe(true);

    expect(names.size).toBe(2);
    expect(names.has('alice')).toBe(true);
    expect(names.has('bob')).toBe(true);
    expect(names.has('carol')).toBe(false);
  });

  test('when the cap is reached, then a new name is refused and one held already is still admitted', () => {
    const names = new NameHashSet(['alice', 'bob']);

    expect(names.admit('carol', 2)).toBe(false);
    expect(names.admit('bob', 2)).toBe(true);

    expect(names.size).toBe(2);
    expect(names.has('carol')).toBe(false);
  });

  test('when it is built from names, then it holds each of them (duplicates once) whatever their number', () => {
    const names = new NameHashSet(['a', 'b', 'a']);
    expect(names.size).toBe(2);
    expect(names.has('a') && names.has('b')).toBe(true);
  });

  test('when 5,000 names are added, then it grows and still answers for every one of them and no other', () => {
    const names = new NameHashSet();
    for (let index = 0; index < 5000; index += 1) expect(names.admit(`viewer_${index}`, 5000)).toBe(true);

    expect(names.size).toBe(5000);
    let held = 0;
    for (let index = 0; index < 5000; index += 1) if (names.has(`viewer_${index}`)) held += 1;
    expect(held).toBe(5000);
    expect(names.admit('viewer_5000', 5000)).toBe(false);
    expect(names.has('viewer_5000')).toBe(false);
  });

  test('when two names have the same hash, then the second counts as held: admitted at the cap, not counted towards it', () => {
    // 'x1' and 'y1' collide: both hash to 1; the others hash apart
    const collide = (name: string) => (name.endsWith('1') ? 1 : hashName(name));
    const names = new NameHashSet(['x1', 'other'], collide);

    expect(names.has('y1')).toBe(true);
    expect(names.admit('y1', 2)).toBe(true);
    expect(names.size).toBe(2);
    expect(names.admit('third', 2)).toBe(false);
  });

  test('when hashes fall into the same slot, then linear probing keeps them apart across growth', () => {
    // every hash lands in slot 0 of any table size (multiples of 2^16)
    const sameSlot = (name: string) => (Number(name) + 1) * 0x10000;
    const names = new NameHashSet([], sameSlot);
    for (let index = 0; index < 40; index += 1) names.admit(String(index), Infinity);

    expect(names.size).toBe(40);
    for (let index = 0; index < 40; index += 1) expect(names.has(String(index))).toBe(true);
    expect(names.has('40')).toBe(false);
  });

  test('when a given hash is 0 or negative, then names are still held and found', () => {
    const names = new NameHashSet(['zero', 'minus'], (name) => (name === 'zero' ? 0 : -5));
    expect(names.size).toBe(2);
    expect(names.has('zero') && names.has('minus')).toBe(true);
    expect(names.has('other')).toBe(true); // hashes to -5 as 'minus' does: a collision
  });

  test('when a name is hashed, then the hash is a non-zero 32-bit number, the same every time', () => {
    expect(hashName('viewer_1')).toBe(hashName('viewer_1'));
    expect(hashName('viewer_1')).not.toBe(hashName('viewer_2'));
    for (const name of ['', 'a', 'viewer_1', 'x'.repeat(64)]) {
      const hash = hashName(name);
      expect(Number.isInteger(hash) && hash > 0 && hash <= 0xffffffff).toBe(true);
    }
  });
});
