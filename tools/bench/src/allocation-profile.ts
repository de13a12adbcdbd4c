import { existsSync, readFileSync } from 'node:fs';

/** The part of V8's sampling heap profile (`HeapProfiler.stopSampling`) read here. */
export interface SamplingHeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  /** Bytes allocated by this frame itself (V8 scales the samples to an estimate of all allocations). */
  selfSize: number;
  children: SamplingHeapProfileNode[];
}

export interface SamplingHeapProfile {
  head: SamplingHeapProfileNode;
}

/** Where a thread's allocations came from, per message of the window. */
export interface AllocationSummary {
  bytesPerMessage: number;
  /** The functions that allocated most themselves (inlined callees count as their caller's). */
  top: { frame: string; bytesPerMessage: number; share: number }[];
}

/** `name file:line` with the path cut to the package (`services/…`, `packages/…`, `nm:<module>/…`). */
export function frameName(callFrame: SamplingHeapProfileNode['callFrame']): string {
  const url = callFrame.url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\//, 'nm:')
    .replace(/.*\/(services|packages|apps|tools)\//, '$1/');
  const where = url === '' ? '' : ` ${url}:${callFrame.lineNumber + 1}`;
  return `${callFrame.functionName || '(anonymous)'}${where}`;
}

export function summariseAllocations(profile: SamplingHeapProfile, messages: number, topCount = 12): AllocationSummary {
  const bySelf = new Map<string, number>();
  let total = 0;
  // iterative: a deep stack must not overflow this one
  const pending: SamplingHeapProfileNode[] = [profile.head];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.selfSize > 0) {
      const frame = frameName(node.callFrame);
      bySelf.set(frame, (bySelf.get(frame) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    pending.push(...node.children);
  }
  const perMessage = (bytes: number) => (messages > 0 ? Math.round(bytes / messages) : Number.NaN);
  const top = [...bySelf.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topCount)
    .map(([frame, bytes]) => ({
      frame,
      bytesPerMessage: perMessage(bytes),
      share: total > 0 ? Number((bytes / total).toFixed(3)) : 0,
    }));
  return { bytesPerMessage: perMessage(total), top };
}

/**
 * Waits for the probe's profile of a window (it writes it once told the window ended) and reads it;
 * throws when it does not come or says why it could not be taken.
 */
export async function readAllocationProfile(file: string, timeoutMs = 15_000): Promise<SamplingHeapProfile> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(file)) {
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as SamplingHeapProfile | { error: string };
        if ('error' in parsed) throw new Error(`the allocation profile could not be taken: ${parsed.error}`);
        return parsed;
      } catch (error) {
        // a file being written is read again; anything else is the answer
        if (!(error instanceof SyntaxError) || Date.now() > deadline) throw error;
      }
    }
    if (Date.now() > deadline) throw new Error(`no allocation profile at ${file} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
