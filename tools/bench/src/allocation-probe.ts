import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';

/** One sample every 16 KB allocated on average: ~4 samples a message at Kickstand's rate, little cost. */
const samplingIntervalBytes = 16 * 1024;

/**
 * What a window's profile counts: everything the thread allocated (`allocated`), or only what
 * outlived the young generation (`promoted`: moved to the old generation by a scavenge, or still
 * held at the window's end). The second is what fills the old generation between full
 * collections, and what leaves holes there when it dies.
 */
export type AllocationProfileKind = 'allocated' | 'promoted';

export interface AllocationProbe {
  /** Starts sampling, or stops it and writes the window's profile (`window-<n>.heapprofile`, n from 1). */
  toggle(): void;
  /** Ends the inspector session (a window under way is not written). */
  close(): void;
}

/**
 * V8's sampling heap profiler on this thread, counting the objects collected since as well (by a
 * full collection only, for `promoted`): a window's profile is what the thread allocated in it, not
 * what it still holds. Chrome DevTools opens the files; allocation-profile.ts reads them.
 */
export function startAllocationProbe(dir: string, kind: AllocationProfileKind = 'allocated'): AllocationProbe {
  const session = new Session();
  session.connect();
  let isSampling = false;
  let windows = 0;
  return {
    toggle() {
      if (!isSampling) {
        isSampling = true;
        session.post('HeapProfiler.enable', () =>
          session.post('HeapProfiler.startSampling', {
            samplingInterval: samplingIntervalBytes,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: kind === 'allocated',
          }),
        );
        return;
      }
      isSampling = false;
      // the young generation's garbage not yet scavenged would count as promoted: scavenge it first
      if (kind === 'promoted') scavenge();
      const file = path.join(dir, `window-${++windows}.heapprofile`);
      session.post('HeapProfiler.stopSampling', (error, result) => {
        // the bench waits for the file: an error is written as its content, so that it is reported
        writeFileSync(file, error ? JSON.stringify({ error: error.message }) : JSON.stringify(result.profile));
      });
    },
    close() {
      session.disconnect();
    },
  };
}

/** A young-generation collection now (V8's `gc` extension, made available to a new context). */
function scavenge(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
  gc({ type: 'minor' });
}

/*
 * Preloaded into Kickstand by `npm run bench -- --alloc-prof` or `--promoted-prof` (`node --require
 * allocation-probe.js`, ALLOCATION_PROFILE_DIR set, ALLOCATION_PROFILE_KIND the kind): the main
 * thread (single-machine mode: the owner) is sampled from the SIGUSR2 the bench sends when a phase's
 * measured window starts to the one it sends when it ends.
 */
const dir = process.env.ALLOCATION_PROFILE_DIR;
if (dir && isMainThread) {
  const kind = process.env.ALLOCATION_PROFILE_KIND ?? 'allocated';
  if (kind !== 'allocated' && kind !== 'promoted') {
    throw new Error(`ALLOCATION_PROFILE_KIND is "allocated" or "promoted", not "${kind}"`);
  }
  process.on('SIGUSR2', startAllocationProbe(dir, kind).toggle);
}
