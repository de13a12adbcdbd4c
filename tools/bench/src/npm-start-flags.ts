/**
 * The node flags `npm start` gives single-machine mode (the root package.json's `start` script),
 * which the bench gives Kickstand too, so its default figures stay `npm start`'s. Flags passed with
 * `--node-flags` come after these, and V8 takes the last value of a flag.
 *
 * `--max-semi-space-size=8`: the owner thread's young generation at 2 × 8 MB instead of V8's
 * 2 × 16 MB; it can only be set when the process starts (docs/performance.md, "Memory", fourth
 * round: −16 MB at the peak, no more GC time at 1,000 msg/s).
 */
export const npmStartNodeFlags: readonly string[] = ['--max-semi-space-size=8'];
