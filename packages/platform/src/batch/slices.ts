/** A turn of the event loop: the I/O, timers and immediates ready meanwhile run first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `each` on consecutive slices of `items` (at most `size` items each), one after another,
 * with a turn of the event loop between two slices, and returns what each gave, in order.
 *
 * Why: one embedded-store write over a thousand documents (an `updateMany` or `deleteMany` with
 * `$in`) is one synchronous NeDB operation of tens of milliseconds in the owner thread, and every
 * webhook, reply and dashboard frame waits behind it (docs/performance.md, "The owner's long
 * tasks"). The same writes in slices cost the same CPU in pieces of a few milliseconds.
 */
export async function inSlices<T, R>(
  items: readonly T[],
  size: number,
  each: (slice: T[]) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(size) || size < 1) throw new Error(`a slice holds at least one item (asked: ${size})`);
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextTurn();
    results.push(await each(items.slice(start, start + size)));
  }
  return results;
}
