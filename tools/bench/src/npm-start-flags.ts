/**
 * What `npm start` (the root package.json's `start` script) gives single-machine mode besides its
 * code, which the bench gives Kickstand too, so its default figures stay `npm start`'s
 * (docs/performance.md, "Memory", fourth round).
 *
 * `--max-semi-space-size=8`: the owner thread's young generation at 2 × 8 MB instead of V8's
 * 2 × 16 MB (−16 MB at the peak, no more GC time at 1,000 msg/s); V8 reads it only when the process
 * starts. Flags passed with `--node-flags` come after it, and V8 takes the last value of a flag.
 *
 * `--v8-pool-size=0`: V8's helper threads (parallel scavenges, concurrent marking, background
 * compiles) one fewer than the cores Node sees (at least one) instead of Node's fixed 4. On 2
 * cores that is one helper for both threads' heaps where 4 woke on every scavenge and competed for
 * the cores with the owner, the front door, and the rest of the machine: webhook ack p99 8.3–12.6 ms
 * against 14.2–16.9 in four alternating pairs at 1,000/s, reply p99 and CPU unchanged
 * (docs/performance.md, block of 2026-11-27 04:15 UTC). Node reads it only when the process starts.
 */
export const npmStartNodeFlags: readonly string[] = ['--max-semi-space-size=8', '--v8-pool-size=0'];

/**
 * `MALLOC_MMAP_THRESHOLD_=4194304`: a fixed glibc mmap threshold, so the 19 MiB blocks of argon2's
 * password hashes are given back when freed instead of staying resident in the malloc arena of each
 * libuv thread that hashed (−59 MB at rest). glibc reads it only when the process starts. The
 * script sets it unless the environment already does, and so does the bench (its own environment
 * wins: deployment.ts passes MALLOC_MMAP_THRESHOLD_ through).
 *
 * `MALLOC_ARENA_MAX=2`: glibc gives at most two malloc arenas instead of one per thread, so memory
 * freed by one thread is not kept in an arena of its own (~17 MB at 1,000 msg/s; "Memory", third
 * round). The script starts node with `exec`, so node replaces the shell npm runs the script in: one
 * process, and the signals npm passes on (SIGINT, SIGTERM) reach node itself, which is why no
 * launcher process is needed to set these.
 */
export const npmStartEnv: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '4194304',
  MALLOC_ARENA_MAX: '2',
};
