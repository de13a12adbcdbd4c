/** The time port: domain code and adapters ask it instead of reading Date.now(), so tests can step time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The wall clock in fractional milliseconds, for metrics of waits between parts of one process
 * (a bus queue, a stage of a reply): a wait of a fraction of a millisecond is worth telling apart
 * from 0. Never for domain decisions (those ask the Clock).
 */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}
