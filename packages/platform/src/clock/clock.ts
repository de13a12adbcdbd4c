/** The time port: domain code and adapters ask it instead of reading Date.now(), so tests can step time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
