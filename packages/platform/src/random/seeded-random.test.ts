import { seededRandom } from './seeded-random';

describe('seededRandom', () => {
  test('when seeded with 1, then it gives mulberry32’s sequence for that seed', () => {
    const random = seededRandom(1);
    const firstWords = [random(), random(), random()].map((value) => value * 4_294_967_296);

    expect(firstWords).toEqual([2693262067, 11749833, 2265367787]);
  });

  test('when two are seeded alike, then they give the same numbers; another seed gives others', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const fromA = Array.from({ length: 100 }, () => a());

    expect(Array.from({ length: 100 }, () => b())).toEqual(fromA);
    expect(Array.from({ length: 100 }, () => c())).not.toEqual(fromA);
  });

  test('when drawn 10,000 times, then every number is in [0, 1)', () => {
    const random = seededRandom(7);
    const values = Array.from({ length: 10_000 }, () => random());

    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
