import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { createTempDirs } from '@kickstand/platform/testing';
import {
  clockTicks,
  clockTicksOf,
  ioCalls,
  ioCallsBetween,
  memory,
  parseIoCalls,
  residentMb,
  switchesBetween,
  threadSwitches,
  threadTicks,
  threadUsage,
} from './process-stats';

describe('clock ticks', () => {
  const auxv = (pairs: Array<[number, number]>) => {
    const buffer = Buffer.alloc(pairs.length * 16);
    pairs.forEach(([type, value], i) => {
      buffer.writeBigUInt64LE(BigInt(type), i * 16);
      buffer.writeBigUInt64LE(BigInt(value), i * 16 + 8);
    });
    return buffer;
  };

  test('when the auxiliary vector holds AT_CLKTCK before AT_NULL, then its value is the ticks a second', () => {
    expect(
      clockTicksOf(
        auxv([
          [6, 4096],
          [17, 250],
          [0, 0],
        ]),
      ),
    ).toBe(250);
    expect(
      clockTicksOf(
        auxv([
          [6, 4096],
          [0, 0],
          [17, 250],
        ]),
      ),
    ).toBeUndefined();
    expect(clockTicksOf(auxv([[6, 4096]]))).toBeUndefined();
  });

  test('when this process reads them, then they are what getconf CLK_TCK says', () => {
    expect(clockTicks()).toBe(Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()));
  });
});

describe('CPU by thread', () => {
  test('when two readings are compared, then the main thread comes first and the others by CPU used; idle and ended threads are left out', () => {
    const before = new Map([
      ['100', 1000],
      ['101', 50],
      ['102', 10],
      ['103', 7],
      ['104', 3],
    ]);
    // 101 used 2 ticks, 102 used 40, 103 nothing, 104 ended, 105 started during the window
    const after = new Map([
      ['100', 1250],
      ['101', 52],
      ['102', 50],
      ['103', 7],
      ['105', 20],
    ]);
    expect(threadUsage(100, before, after, 100)).toEqual([
      { tid: 100, isMain: true, cpuSeconds: 2.5 },
      { tid: 102, isMain: false, cpuSeconds: 0.4 },
      { tid: 105, isMain: false, cpuSeconds: 0.2 },
      { tid: 101, isMain: false, cpuSeconds: 0.02 },
    ]);
  });

  test('when the threads of this process are read by its pid, then they are the ones read as self', () => {
    expect([...threadTicks(process.pid).keys()].sort()).toEqual([...threadTicks().keys()].sort());
  });

  test('when the process is gone, then it has no threads', () => {
    expect(threadTicks(2 ** 22 + 1).size).toBe(0);
  });
});

describe('context switches', () => {
  test('when two readings are compared, then the switches of the threads of the second are summed, one started since counting from 0 and one ended left out', () => {
    const before = new Map([
      ['100', { sleeps: 1000, preemptions: 40 }],
      ['101', { sleeps: 10, preemptions: 2 }],
      ['102', { sleeps: 5, preemptions: 5 }],
    ]);
    // 100 slept 250 times and was preempted 10 times, 101 once each, 102 ended, 103 started
    const after = new Map([
      ['100', { sleeps: 1250, preemptions: 50 }],
      ['101', { sleeps: 11, preemptions: 3 }],
      ['103', { sleeps: 7, preemptions: 0 }],
    ]);
    expect(switchesBetween(before, after)).toEqual({ sleeps: 258, preemptions: 11 });
  });

  // Blocked on a futex rather than awaiting a timer: a 20 ms timer fires without the thread ever
  // sleeping when the loop's cached time is 20 ms stale, as it is under CI's load (it failed so).
  test('when the main thread blocks for 20 ms, then it is counted as having slept', () => {
    const before = threadSwitches(process.pid);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    const main = (readings: Map<string, { sleeps: number }>) => readings.get(String(process.pid))?.sleeps ?? Number.NaN;
    expect(main(threadSwitches(process.pid))).toBeGreaterThan(main(before));
  });

  test('when the process is gone, then it has no switches', () => {
    expect(threadSwitches(2 ** 22 + 1).size).toBe(0);
  });
});

describe('read and write system calls', () => {
  const temp = createTempDirs('process-stats');
  afterAll(temp.removeAll);

  test('when /proc/<pid>/io is read, then syscr and syscw are the reads and writes', () => {
    const text = 'rchar: 3014\nwchar: 881\nsyscr: 17\nsyscw: 9\nread_bytes: 0\nwrite_bytes: 4096\n';
    expect(parseIoCalls(text)).toEqual({ reads: 17, writes: 9 });
    expect(parseIoCalls('rchar: 3014\n')).toBeUndefined();
  });

  test('when this process writes a file 25 times, then at least 25 more writes are counted', async () => {
    const dir = await temp.make();
    const before = ioCalls(process.pid);
    const fd = openSync(path.join(dir, 'calls.log'), 'a');
    try {
      for (let i = 0; i < 25; i++) writeSync(fd, `line ${i}\n`);
    } finally {
      closeSync(fd);
    }
    const between = ioCallsBetween(before, ioCalls(process.pid));
    expect(between.writes).toBeGreaterThanOrEqual(25);
    expect(between.reads).toBeGreaterThanOrEqual(0);
  });

  test('when the process is gone, then it has no reading and the window counts NaN', () => {
    expect(ioCalls(2 ** 22 + 1)).toBeUndefined();
    expect(ioCallsBetween({ reads: 1, writes: 1 }, undefined)).toEqual({ reads: Number.NaN, writes: Number.NaN });
  });
});

describe('resident memory', () => {
  test('when this process is read twice, then the sum is twice its resident set, and a gone process makes it NaN', () => {
    const own = memory(process.pid)?.rssMb ?? Number.NaN;
    expect(own).toBeGreaterThan(10);
    // read apart, the two readings of this live process may differ by a few pages
    expect(residentMb([process.pid, process.pid])).toBeCloseTo(2 * own, -1);
    expect(residentMb([process.pid, 2 ** 22 + 1])).toBeNaN();
    expect(residentMb([])).toBe(0);
  });
});
