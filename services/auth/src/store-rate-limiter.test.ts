import { createFakeClock, createTestPlatform, type FakeClock, type TestPlatform } from '@kickstand/platform/testing';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { StoreRateLimiter, type RateLimitDoc } from './store-rate-limiter';

describe('rate-limiter-flexible over the store port', () => {
  let platform: TestPlatform;
  let clock: FakeClock;
  const limiter = (keyPrefix: string, points: number, duration: number) => {
    const collection = platform.store.collection<RateLimitDoc>('rate-limits');
    return new StoreRateLimiter({ collection, clock, keyPrefix, points, duration });
  };

  beforeEach(async () => {
    clock = createFakeClock(new Date('2026-03-01T12:00:00Z'));
    platform = await createTestPlatform('auth', { clock });
    await platform.store.collection('rate-limits').createIndex({ fields: { expiresAt: 1 }, expireAfterSeconds: 0 });
  });
  afterEach(() => platform.close());

  test('when points are consumed, then each answer counts them, and past the limit the promise rejects with the time left', async () => {
    const limit = limiter('t', 2, 60);
    expect((await limit.consume('k')).consumedPoints).toBe(1);
    clock.advance(20_000);
    const second = await limit.consume('k');
    expect([second.consumedPoints, second.remainingPoints, second.msBeforeNext]).toEqual([2, 0, 40_000]);

    const refused: unknown = await limit.consume('k').catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect((refused as RateLimiterRes).msBeforeNext).toBe(40_000);
    expect((await limiter('t', 2, 60).consume('other')).consumedPoints).toBe(1);
  });

  test('when exactly the duration has passed on the clock, then the key starts again from one', async () => {
    const limit = limiter('t', 1, 60);
    await limit.consume('k');
    clock.advance(59_999);
    await expect(limit.consume('k')).rejects.toMatchObject({ msBeforeNext: 1 });

    clock.advance(1);

    expect((await limit.consume('k')).consumedPoints).toBe(1);
  });

  test('when two limiters share the collection, then their prefixes keep the keys apart', async () => {
    await limiter('a', 5, 60).penalty('k', 3);
    expect((await limiter('b', 5, 60).penalty('k')).consumedPoints).toBe(1);
    expect((await limiter('a', 5, 60).get('k'))?.consumedPoints).toBe(3);
  });

  test('when a key is blocked, then get tells the block time left; after delete, nothing is left', async () => {
    const limit = limiter('t', 0, 60);
    await limit.block('k', 8);
    clock.advance(3_000);
    expect((await limit.get('k'))?.msBeforeNext).toBe(5_000);

    expect(await limit.delete('k')).toBe(true);

    expect(await limit.get('k')).toBeNull();
    expect(await limit.delete('k')).toBe(false);
  });

  test('when a point is given back, then the count goes down by one', async () => {
    const limit = limiter('t', 5, 60);
    await limit.penalty('k', 2);
    expect((await limit.reward('k')).consumedPoints).toBe(1);
  });

  test('when 20 points are consumed at once, then every one is counted (atomic $inc)', async () => {
    const limit = limiter('t', 100, 60);
    await Promise.all(Array.from({ length: 20 }, () => limit.consume('k')));
    expect((await limit.get('k'))?.consumedPoints).toBe(20);
  });
});
