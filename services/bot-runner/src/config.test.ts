import { loadConfig } from '@kickstand/platform/config';
import { botRunnerConfigSchema, timerMinuteMsOf } from './config';

describe('bot-runner config', () => {
  test('when INSTANCE_ID is unset or empty, then none is given (the service makes up a random one)', () => {
    expect(loadConfig(botRunnerConfigSchema, {}).INSTANCE_ID).toBeUndefined();
    expect(loadConfig(botRunnerConfigSchema, { INSTANCE_ID: '' }).INSTANCE_ID).toBeUndefined();
  });

  test('when INSTANCE_ID is set, then it names the instance, and a name unfit for a group is refused', () => {
    expect(loadConfig(botRunnerConfigSchema, { INSTANCE_ID: 'bot-runner-7f9c_2' }).INSTANCE_ID).toBe(
      'bot-runner-7f9c_2',
    );
    expect(() => loadConfig(botRunnerConfigSchema, { INSTANCE_ID: 'has space' })).toThrow(/INSTANCE_ID/);
  });
});

describe('TIMER_MINUTE_MS (sandbox e2e only)', () => {
  test('when unset, then timers use real minutes', () => {
    expect(timerMinuteMsOf(loadConfig(botRunnerConfigSchema, { TIMER_MINUTE_MS: '' }))).toEqual({});
  });

  test('when set outside production, then a timer minute lasts that long', () => {
    expect(timerMinuteMsOf(loadConfig(botRunnerConfigSchema, { TIMER_MINUTE_MS: '1000' }))).toEqual({
      timerMinuteMs: 1000,
    });
  });

  test('when set in production, then the start is refused', () => {
    const config = loadConfig(botRunnerConfigSchema, { TIMER_MINUTE_MS: '1000', NODE_ENV: 'production' });
    expect(() => timerMinuteMsOf(config)).toThrow('TIMER_MINUTE_MS is for the sandbox and tests only');
  });

  test('when out of 100..60000, then the config is refused', () => {
    expect(() => loadConfig(botRunnerConfigSchema, { TIMER_MINUTE_MS: '50' })).toThrow(/TIMER_MINUTE_MS/);
  });
});
