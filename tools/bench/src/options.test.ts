import { parseOptions } from './options';

describe('bench options', () => {
  test('when a value is given after an equals sign and holds one itself, then it is kept whole', () => {
    expect(parseOptions(['--node-flags=--v8-pool-size=1 --max-semi-space-size=4']).nodeFlags).toEqual([
      '--v8-pool-size=1',
      '--max-semi-space-size=4',
    ]);
  });

  test('when a value is given as the next argument, then it is read the same', () => {
    expect(parseOptions(['--node-flags', '--v8-pool-size=1', '--latency-rate=400']).nodeFlags).toEqual([
      '--v8-pool-size=1',
    ]);
    expect(parseOptions(['--latency-rate=400']).latencyRate).toBe(400);
  });

  test('when --sandbox-node-flags is given, then the sandbox gets those flags and Kickstand does not', () => {
    const options = parseOptions(['--sandbox-node-flags=--trace-gc --trace-gc-nvp']);
    expect(options.sandboxNodeFlags).toEqual(['--trace-gc', '--trace-gc-nvp']);
    expect(options.nodeFlags).toEqual([]);
    expect(parseOptions([]).sandboxNodeFlags).toEqual([]);
  });

  test('when an option is not known, then it is refused by name', () => {
    expect(() => parseOptions(['--latency=400'])).toThrow('unknown option --latency');
  });

  test('when --alloc-prof or --promoted-prof is given, then the owner is sampled for that; both, or in distributed mode, are refused', () => {
    expect(parseOptions(['--alloc-prof']).allocationProfile).toBe('allocated');
    expect(parseOptions(['--promoted-prof']).allocationProfile).toBe('promoted');
    expect(parseOptions([]).allocationProfile).toBeUndefined();
    expect(() => parseOptions(['--distributed', '--alloc-prof'])).toThrow(
      '--alloc-prof profiles single-machine mode only',
    );
    expect(() => parseOptions(['--distributed', '--promoted-prof'])).toThrow(
      '--promoted-prof profiles single-machine mode only',
    );
    expect(() => parseOptions(['--alloc-prof', '--promoted-prof'])).toThrow(
      '--alloc-prof and --promoted-prof sample the same profiler: one at a time',
    );
  });

  test('when --timeline-bin is given, then the timeline has bins that wide; without it 5 s, and 0 is refused', () => {
    expect(parseOptions(['--timeline-bin', '1']).timelineBinSeconds).toBe(1);
    expect(parseOptions([]).timelineBinSeconds).toBe(5);
    expect(() => parseOptions(['--timeline-bin=0'])).toThrow('--timeline-bin must be more than 0');
  });
});
