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
 * V8 reads these flags at each collection (and pretenuring's before any place in the code has
 * learnt to pretenure), so setting them once the process runs works, for both threads (V8's flags
 * are per process), and `npm start` and a plain `node …/main.js` get them alike.
 */
export function heapFlags(config: Pick<SingleMachineConfig, 'HEAP_GROWING_PERCENT'>): string[] {
  const growing = config.HEAP_GROWING_PERCENT > 0 ? [`--heap-growing-percent=${config.HEAP_GROWING_PERCENT}`] : [];
  return [noPretenuring, ...growing];
}

/**
 * V8 allocates an object literal straight into the old generation once most of the objects made
 * at that place in the code between two scavenges outlived the second (allocation-site
 * pretenuring), and does not look back: no young object is made there afterwards to show that
 * the later ones die young. In the owner such decisions come at start (the services load every
 * channel's state) and keep coming under load, a few every ten seconds; the places that copy the
 * bus's messages and parse Kick's deliveries were among them, so each chat line's message was
 * made in the old generation and died there, filling it towards the next full collection (the
 * owner promoted 3,257 bytes a message in the dashboards phase with it, 1,355 without;
 * docs/performance.md, "Pretenured by V8"). Without it a long-lived object is copied once more,
 * by a scavenge.
 */
const noPretenuring = '--no-allocation-site-pretenuring';

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
