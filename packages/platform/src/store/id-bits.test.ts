import { seededRandom } from '../random';
import { randomUlid, randomUuid } from '../testing/random-ids';
import { IdEncoder, stringKind } from './id-bits';

/** Encodes `id` and decodes what it gave: the id itself for every shape the encoder knows. */
function roundTrip(encoder: IdEncoder, id: string): { kind: number; decoded: string | undefined } {
  encoder.encode(id);
  const { kind } = encoder;
  return { kind, decoded: kind === stringKind ? undefined : encoder.decode(kind, encoder.key, 0) };
}

describe('ids as bits (id-bits.ts)', () => {
  test('when UUIDs and ULIDs, with and without a prefix, are encoded, then each decodes to itself', () => {
    const random = seededRandom(11);
    const encoder = new IdEncoder();
    const ids = [
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '00000000000000000000000000',
      '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
    ];
    for (let i = 0; i < 500; i++) {
      ids.push(randomUuid(random), `chat:${randomUuid(random)}`, randomUlid(random), `reply:${randomUlid(random)}`);
    }
    for (const id of ids) {
      const { kind, decoded } = roundTrip(encoder, id);
      expect({ id, isBits: kind !== stringKind, decoded }).toEqual({ id, isBits: true, decoded: id });
    }
  });

  test('when ids of no known shape are encoded, then they stay strings', () => {
    const encoder = new IdEncoder();
    const plain = [
      'm1',
      'DF59E7C5-8A33-47BD-9486-51014CC4667A', // an uppercase UUID is another string
      '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', // 26 base32 characters, but more than 128 bits
      'df59e7c5-8a33-47bd-9486-51014cc4667', // one digit short
      '3cb4b636-9c62-41c2-8463-477ea040e802|2026-11-29T00:37:00.000Z', // a UUID not at the end
    ];
    for (const id of plain) expect({ id, kind: roundTrip(encoder, id).kind }).toEqual({ id, kind: stringKind });
  });

  test('when a kind this encoder never gave is decoded, then it refuses', () => {
    const encoder = new IdEncoder();
    encoder.encode('df59e7c5-8a33-47bd-9486-51014cc4667a');
    expect(() => encoder.decode(encoder.kind + 2, encoder.key, 0)).toThrow('no id of kind');
    expect(() => encoder.decode(stringKind, encoder.key, 0)).toThrow('no id of kind');
  });
});
