import type { Clock } from '../clock/clock';

/** A clock that only moves when a test moves it. */
export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(date: Date): void;
}

export function createFakeClock(start = new Date('2026-01-01T00:00:00Z')): FakeClock {
  let current = start.getTime();
  return {
    // a fresh Date each time, so a caller mutating it cannot move the clock
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}
