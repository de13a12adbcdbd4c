import { createUlidFactory, ulidPattern } from './ids';

describe('createUlidFactory', () => {
  test('when ids are made, then they are 26 Crockford base32 characters led by the time', () => {
    const ulid = createUlidFactory();
    const id = ulid(Date.parse('2026-03-02T18:04:11Z'));
    expect(id).toMatch(ulidPattern);
    // 48-bit milliseconds in the first 10 characters
    const time = [...id.slice(0, 10)].reduce((acc, c) => acc * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c), 0);
    expect(time).toBe(Date.parse('2026-03-02T18:04:11Z'));
  });

  test('when many ids are made in the same millisecond or the clock steps back, then they still sort in creation order', () => {
    const ulid = createUlidFactory();
    const ids = [ulid(1000), ulid(1000), ulid(1000), ulid(999), ulid(1001)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
