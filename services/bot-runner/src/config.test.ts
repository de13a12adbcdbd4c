import { loadConfig } from '@kickstand/platform/config';
import { botRunnerConfigSchema } from './config';

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
