import { percentile, rounded, Samples, summarize, timeline } from './stats';

describe('percentile (nearest rank)', () => {
  const oneToHundred = Float64Array.from({ length: 100 }, (_, i) => i + 1);

  test('when there are 100 samples 1…100, then p50 is 50, p95 is 95, p99 is 99 and p100 is 100', () => {
    expect(percentile(oneToHundred, 50)).toBe(50);
    expect(percentile(oneToHundred, 95)).toBe(95);
    expect(percentile(oneToHundred, 99)).toBe(99);
    expect(percentile(oneToHundred, 100)).toBe(100);
  });

  test('when there are few samples, then the percentile is a sample, rounded up to the next rank', () => {
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([1, 2, 3], 99)).toBe(3);
    expect(percentile([7], 1)).toBe(7);
    expect(percentile([10, 20], 50)).toBe(10);
    expect(percentile([10, 20], 51)).toBe(20);
  });

  test('when there is no sample, then NaN; when p is out of range, then it throws', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  test('when samples come unsorted, then the summary sorts them (numerically, not as text)', () => {
    const summary = summarize([100, 9, 25, 3, 1000, 2, 50, 7, 1, 10]);
    expect(summary).toEqual({ count: 10, p50: 9, p95: 1000, p99: 1000, max: 1000, mean: 120.7 });
  });

  test('when a Samples buffer grows past its first block, then nothing is lost', () => {
    const samples = new Samples();
    for (let i = 5000; i >= 1; i--) samples.push(i);
    expect(samples.length).toBe(5000);
    expect(rounded(samples.summary())).toEqual({
      count: 5000,
      p50: 2500,
      p95: 4750,
      p99: 4950,
      max: 5000,
      mean: 2500.5,
    });
  });
});

describe('timeline', () => {
  test('when samples fall in three 5 s bins, one of them empty, then each bin has its own count, p50, p99 and max', () => {
    const at = [0, 1000, 4999, 12_000, 14_000, -5];
    const value = [1, 3, 2, 40, 10, 999];
    expect(timeline(at, value, 5000)).toEqual([
      { fromS: 0, count: 3, p50: 2, p99: 3, max: 3 },
      { fromS: 5, count: 0, p50: NaN, p99: NaN, max: NaN },
      { fromS: 10, count: 2, p50: 10, p99: 40, max: 40 },
    ]);
  });

  test('when a figure read now and then has samples that could not be read (NaN), then they are left out and each bin has the largest of its own', () => {
    const at = [0, 2500, 4999, 12_000, 14_000, -5, 3000];
    const value = [250.04, 301.26, 280, 240, 255.55, 999, NaN];
    expect(timeline(at, value, 5000).map(({ fromS, count, max }) => ({ fromS, count, max }))).toEqual([
      { fromS: 0, count: 3, max: 301.26 },
      { fromS: 5, count: 0, max: NaN },
      { fromS: 10, count: 2, max: 255.55 },
    ]);
  });
});
