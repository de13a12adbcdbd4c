import { availableParallelism } from 'node:os';
import { plannedStart } from './presign';

describe('plannedStart', () => {
  test('when a phase is signed, then it starts on a whole second, after twice the expected signing time and a second', () => {
    const now = Date.parse('2026-11-25T20:00:00.250Z');
    const signingMs = (10_000 * 0.7) / Math.max(1, availableParallelism());

    const start = plannedStart(10_000, now);

    expect(start % 1000).toBe(0);
    expect(start).toBeGreaterThanOrEqual(now + 2 * signingMs + 1000);
    expect(start).toBeLessThan(now + 2 * signingMs + 2000);
  });
});
