import { threadTicks, threadUsage } from './process-stats';

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
