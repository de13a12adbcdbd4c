// A chart's axis: a round top value and evenly spaced ticks (the admin's bar chart, the streamer's analytics).

/** The smallest of 1, 2, 5 × 10^n at or above `value` (at least 1), so the axis reads well. */
export function niceCeiling(value: number): number {
  if (!(value > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * magnitude >= value) ?? 10;
  return step * magnitude;
}

/** Ticks from 0 to `top` inclusive, `count` intervals, whole numbers only when `top` allows. */
export function ticksUpTo(top: number, count = 4): number[] {
  const intervals = top < count ? top : count;
  if (intervals <= 0) return [0];
  return Array.from({ length: intervals + 1 }, (_, index) => Math.round((top * index) / intervals));
}
