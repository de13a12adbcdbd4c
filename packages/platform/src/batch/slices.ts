/** The longest pause between two slices: a flush of ~60 slices stays well within its period. */
const maxPauseMs = 10;

/** A timer of `ms`: the loop's poll phase meanwhile waits for, and runs, whatever I/O comes in. */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `each` on consecutive slices of `items` (at most `size` items each), one after another,
 * and returns what each gave, in order. Between two slices it pauses on a timer as long as the
 * slice took (at least 1 ms, at most 10), so the slices take at most about half of the thread
 * while they run.
 *
 * Why: one embedded-store write over a thousand documents (an `updateMany` or `deleteMany` with
 * `$in`) is one synchronous NeDB operation of tens of milliseconds in the owner thread, and every
 * webhook, reply and dashboard frame waits behind it (docs/performance.md, "The owner's long
 * tasks"). In slices with only a `setImmediate` between them, the slices still ran back to back
 * with the webhook work, the thread never idle: one busy stretch of 70–270 ms every 5 s at 1,000
 * msg/s (auth's count flush). With a timer the work that came in meanwhile runs, and the thread
 * has time to spare, between two slices ("The owner's long tasks, second round").
 */
export async function inSlices<T, R>(
  items: readonly T[],
  size: number,
  each: (slice: T[]) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(size) || size < 1) throw new Error(`a slice holds at least one item (asked: ${size})`);
  const results: R[] = [];
  let tookMs = 0;
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await pause(Math.min(maxPauseMs, Math.max(1, tookMs)));
    const startedAt = performance.now();
    results.push(await each(items.slice(start, start + size)));
    tookMs = performance.now() - startedAt;
  }
  return results;
}
