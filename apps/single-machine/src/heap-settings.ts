import { setFlagsFromString } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';
import type { SingleMachineConfig } from './config';

/**
 * How the V8 heaps of single-machine mode are sized (docs/performance.md, "Memory (issue 22 item 5)").
 *
 * V8 lets a heap's old generation grow to up to 4 times what survived the last full collection
 * before collecting again (less when allocation is slow); at chat rates that headroom, in two
 * threads, is most of the process's resident memory. HEAP_GROWING_PERCENT caps that growth: the
 * next full collection starts once the old generation is (100 + N) % of what survived the last one.
 * V8 reads the flag at each collection, so setting it once the process runs works, for both
 * threads (V8's flags are per process), and `npm start` and a plain `node …/main.js` get it alike.
 */
export function heapFlags(config: Pick<SingleMachineConfig, 'HEAP_GROWING_PERCENT'>): string[] {
  return config.HEAP_GROWING_PERCENT > 0 ? [`--heap-growing-percent=${config.HEAP_GROWING_PERCENT}`] : [];
}

/** Applies heapFlags to this process; call first thing, before the services allocate. */
export function applyHeapSettings(config: Pick<SingleMachineConfig, 'HEAP_GROWING_PERCENT'>): void {
  for (const flag of heapFlags(config)) setFlagsFromString(flag);
}

/**
 * The front door thread's young generation: 2 semi-spaces of 8 MB where V8 would grow them to 16 MB
 * (V8 counts 3 semi-spaces: two plus the large-object space beside them). Its objects live for a
 * request; at 4 MB (12 here) in-flight requests outlived two scavenges and were promoted (11 MB a
 * second, a full collection every second). No ceiling on the old generation: reaching one ends the
 * thread (ERR_WORKER_OUT_OF_MEMORY) and with it the process; HEAP_GROWING_PERCENT bounds it instead.
 */
export const frontDoorResourceLimits: ResourceLimits = { maxYoungGenerationSizeMb: 24 };
