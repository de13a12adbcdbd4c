import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTempDirs } from '@kickstand/platform/testing';
import { startAllocationProbe } from './allocation-probe';
import {
  frameName,
  readAllocationProfile,
  summariseAllocations,
  type SamplingHeapProfileNode,
} from './allocation-profile';

const temp = createTempDirs('alloc-profile');
afterAll(() => temp.removeAll());

const node = (
  functionName: string,
  url: string,
  selfSize: number,
  children: SamplingHeapProfileNode[] = [],
): SamplingHeapProfileNode => ({ callFrame: { functionName, url, lineNumber: 9 }, selfSize, children });

describe('summariseAllocations', () => {
  it('when a function allocates at two places in the tree, then its bytes are added up, per message, largest first', () => {
    const drain = 'file:///repo/packages/platform/dist/bus/in-process-bus.js';
    const head = node('(root)', '', 0, [
      node('drain', drain, 6_000, [node('copy', 'file:///repo/node_modules/x/lib/copy.js', 1_000)]),
      node('publish', '/repo/services/realtime/dist/events.js', 2_000, [node('drain', drain, 1_000)]),
    ]);

    const summary = summariseAllocations({ head }, 10);

    expect(summary.bytesPerMessage).toBe(1_000);
    expect(summary.top).toEqual([
      { frame: 'drain packages/platform/dist/bus/in-process-bus.js:10', bytesPerMessage: 700, share: 0.7 },
      { frame: 'publish services/realtime/dist/events.js:10', bytesPerMessage: 200, share: 0.2 },
      { frame: 'copy nm:x/lib/copy.js:10', bytesPerMessage: 100, share: 0.1 },
    ]);
  });

  it('when a frame has no name or file, then it is named as V8 names it', () => {
    expect(frameName({ functionName: '', url: '', lineNumber: -1 })).toBe('(anonymous)');
    expect(frameName({ functionName: '(garbage collector)', url: '', lineNumber: -1 })).toBe('(garbage collector)');
  });

  it('when no message was measured, then the figures per message are not a number', () => {
    expect(summariseAllocations({ head: node('(root)', '', 100) }, 0).bytesPerMessage).toBeNaN();
  });
});

describe('the allocation probe', () => {
  function keptArray(i: number): number[] {
    return new Array<number>(128).fill(i); // ~1 KB, held by the test
  }

  function allocateArrays(count: number): number {
    let kept = 0;
    for (let i = 0; i < count; i++) kept += new Array<number>(128).fill(i).length; // ~1 KB each, collected
    return kept;
  }

  it('when a window allocates ~20 MB that is collected, then its profile counts them, under the allocating function', async () => {
    const dir = await temp.make();
    const probe = startAllocationProbe(dir);
    try {
      probe.toggle();
      allocateArrays(20_000);
      probe.toggle();
      const profile = await readAllocationProfile(path.join(dir, 'window-1.heapprofile'));

      const summary = summariseAllocations(profile, 1);

      // the profiler samples; its estimate of 20,000 arrays of 1,040 bytes lies well within a factor of two
      expect(summary.bytesPerMessage).toBeGreaterThan(10_000_000);
      expect(summary.bytesPerMessage).toBeLessThan(60_000_000);
      expect(summary.top[0]?.frame).toMatch(/^allocateArrays tools\/bench\/src\/allocation-profile\.test\.ts:\d+$/);
    } finally {
      probe.close();
    }
  });

  it('when only what outlives the young generation is counted, then ~5 MB kept is, and ~20 MB collected young is not', async () => {
    const dir = await temp.make();
    const probe = startAllocationProbe(dir, 'promoted');
    const kept: number[][] = [];
    try {
      probe.toggle();
      allocateArrays(20_000);
      for (let i = 0; i < 5_000; i++) kept.push(keptArray(i));
      allocateArrays(20_000);
      probe.toggle();
      const profile = await readAllocationProfile(path.join(dir, 'window-1.heapprofile'));

      const summary = summariseAllocations(profile, 1);

      // 5,000 arrays of 1,040 bytes still held; the 40,000 collected by scavenges are not counted
      expect(kept).toHaveLength(5_000);
      expect(summary.bytesPerMessage).toBeGreaterThan(2_500_000);
      expect(summary.bytesPerMessage).toBeLessThan(10_000_000);
      expect(summary.top[0]?.frame).toMatch(/^keptArray tools\/bench\/src\/allocation-profile\.test\.ts:\d+$/);
    } finally {
      probe.close();
    }
  });

  it('when the window is the second, then it is written as window-2 and the first is left as it was', async () => {
    const dir = await temp.make();
    const probe = startAllocationProbe(dir);
    try {
      probe.toggle();
      probe.toggle();
      await readAllocationProfile(path.join(dir, 'window-1.heapprofile'));
      probe.toggle();
      allocateArrays(1_000);
      probe.toggle();
      await readAllocationProfile(path.join(dir, 'window-2.heapprofile'));
      expect(existsSync(path.join(dir, 'window-3.heapprofile'))).toBe(false);
    } finally {
      probe.close();
    }
  });

  it('when no profile comes, then reading it fails and says where it looked', async () => {
    const file = path.join(await temp.make(), 'window-1.heapprofile');
    await expect(readAllocationProfile(file, 200)).rejects.toThrow(`no allocation profile at ${file} after 0.2 s`);
  });
});
