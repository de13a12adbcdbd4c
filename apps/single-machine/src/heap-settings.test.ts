import { ConfigError, loadConfig } from '@kickstand/platform/config';
import { singleMachineConfigSchema } from './config';
import { heapFlags } from './heap-settings';

const configWith = (env: NodeJS.ProcessEnv) => loadConfig(singleMachineConfigSchema, env);

describe('heap settings of single-machine mode', () => {
  it('when HEAP_GROWING_PERCENT is unset or empty, then the old generation may grow by 50 % before a full collection', () => {
    expect(configWith({}).HEAP_GROWING_PERCENT).toBe(50);
    expect(configWith({ HEAP_GROWING_PERCENT: '' }).HEAP_GROWING_PERCENT).toBe(50);
    expect(heapFlags(configWith({}))).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=50']);
  });

  it('when HEAP_GROWING_PERCENT is set, then that is the V8 flag', () => {
    expect(heapFlags(configWith({ HEAP_GROWING_PERCENT: '30' }))).toEqual([
      '--no-allocation-site-pretenuring',
      '--heap-growing-percent=30',
    ]);
  });

  it("when HEAP_GROWING_PERCENT is 0, then V8's own heuristic decides the growth", () => {
    expect(heapFlags(configWith({ HEAP_GROWING_PERCENT: '0' }))).toEqual(['--no-allocation-site-pretenuring']);
  });

  it.each(['-1', '301', '12.5', 'lots'])('when HEAP_GROWING_PERCENT is %s, then the config is refused', (value) => {
    expect(() => configWith({ HEAP_GROWING_PERCENT: value })).toThrow(ConfigError);
  });
});

describe('MEMORY_LOG_INTERVAL_MS', () => {
  it('when unset or empty, then no memory is logged', () => {
    expect(configWith({}).MEMORY_LOG_INTERVAL_MS).toBeUndefined();
    expect(configWith({ MEMORY_LOG_INTERVAL_MS: '' }).MEMORY_LOG_INTERVAL_MS).toBeUndefined();
  });

  it('when set, then it is a whole number of milliseconds from 100 to an hour', () => {
    expect(configWith({ MEMORY_LOG_INTERVAL_MS: '1000' }).MEMORY_LOG_INTERVAL_MS).toBe(1000);
    for (const value of ['99', '3600001', '1.5', 'often']) {
      expect(() => configWith({ MEMORY_LOG_INTERVAL_MS: value })).toThrow(ConfigError);
    }
  });
});
