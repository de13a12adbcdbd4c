import { packRequests, RequestArena } from './request-arena';

const request = (n: number) => ({
  head: `POST /x HTTP/1.1\r\nContent-Length: ${Buffer.byteLength(`body ${n} — ü`)}\r\n\r\n`,
  body: `body ${n} — ü`,
});
const bytesOf = (part: { head: string; body: string }) =>
  Buffer.concat([Buffer.from(part.head, 'latin1'), Buffer.from(part.body, 'utf8')]);

describe('packRequests', () => {
  test('when requests are packed, then they lie end to end in a buffer of their own (transferable whole)', () => {
    const parts = [request(1), request(22), request(333)];

    const { bytes, ends } = packRequests(parts);

    expect(bytes.equals(Buffer.concat(parts.map(bytesOf)))).toBe(true);
    expect([...ends]).toEqual([
      bytesOf(parts[0]!).length,
      bytesOf(parts[0]!).length + bytesOf(parts[1]!).length,
      bytes.length,
    ]);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });
});

describe('RequestArena', () => {
  test('when batches come back in any order, then each request is found by its index, byte for byte', () => {
    const parts = Array.from({ length: 7 }, (_, n) => request(n));
    const arena = new RequestArena(7);

    arena.add(4, packRequests(parts.slice(4)));
    expect(arena.isComplete).toBe(false);
    arena.add(0, packRequests(parts.slice(0, 4)));

    expect(arena.isComplete).toBe(true);
    expect(arena.byteLength).toBe(parts.reduce((sum, part) => sum + bytesOf(part).length, 0));
    parts.forEach((part, n) => expect(arena.get(n).equals(bytesOf(part))).toBe(true));
  });

  test('when a request is not stored, is stored twice, or lies outside the phase, then the arena says so', () => {
    const arena = new RequestArena(3);
    arena.add(1, packRequests([request(1)]));

    expect(() => arena.get(0)).toThrow('request 0 is not stored');
    expect(() => arena.get(3)).toThrow('request 3 is not stored');
    expect(() => arena.add(1, packRequests([request(1)]))).toThrow('request 1 is stored already');
    expect(() => arena.add(2, packRequests([request(2), request(3)]))).toThrow('requests 2…3 are outside 0…2');
    expect(() => arena.add(0, { bytes: Buffer.from('abc'), ends: Uint32Array.of(4) })).toThrow(
      'request 0 ends outside its batch',
    );
  });
});
