import { getHeapSpaceStatistics } from 'node:v8';
import type { Logger } from './logger';

/** One thread's V8 heap and the process's resident set, in MB (1 decimal). */
export interface MemoryReading {
  /** The whole process's resident set (every thread's heap, native memory, code). */
  rssMb: number;
  /** This thread's V8 heap: reserved for objects, and in use by them (live or not yet collected). */
  heapTotalMb: number;
  heapUsedMb: number;
  /** Memory outside the heap held by this thread's objects (Buffers, ArrayBuffers). */
  externalMb: number;
  arrayBuffersMb: number;
  /** Per heap space (new_space, old_space, code_space, large_object_space, …): its size and what is used. */
  spaces: Record<string, { sizeMb: number; usedMb: number }>;
}

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

/** What this thread's heap holds right now (process.memoryUsage is per thread for the heap, per process for rss). */
export function readMemory(): MemoryReading {
  const usage = process.memoryUsage();
  const spaces: MemoryReading['spaces'] = {};
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_size === 0) continue;
    spaces[space.space_name] = { sizeMb: mb(space.space_size), usedMb: mb(space.space_used_size) };
  }
  return {
    rssMb: mb(usage.rss),
    heapTotalMb: mb(usage.heapTotal),
    heapUsedMb: mb(usage.heapUsed),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
    spaces,
  };
}

/**
 * A debugging aid (MEMORY_LOG_INTERVAL_MS): logs this thread's readMemory() every `intervalMs`, so
 * that where a process's memory goes can be followed under load, thread by thread. The timer does
 * not keep the process alive. Returns its stop.
 */
export function startMemoryLog(log: Logger, intervalMs: number): () => void {
  const timer = setInterval(() => log.info({ memory: readMemory() }, 'memory'), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
