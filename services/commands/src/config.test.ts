import { loadConfig } from '@kickstand/platform/config';
import { commandsConfigSchema, commandsOptionsFromSettings } from './config';

describe('commands configuration: the redelivery window of counted command executions', () => {
  test('when the bus is in-process, then it is 2 minutes, whatever KAFKA_REDELIVERY_WINDOW says', () => {
    const config = loadConfig(commandsConfigSchema, { KAFKA_REDELIVERY_WINDOW: '7d' });
    expect(commandsOptionsFromSettings(config)).toEqual({ redeliveryWindowSeconds: 120 });
  });

  test('when KAFKA_BROKERS is set, then it is 3 days by default', () => {
    const config = loadConfig(commandsConfigSchema, { KAFKA_BROKERS: 'kafka:9092' });
    expect(commandsOptionsFromSettings(config)).toEqual({ redeliveryWindowSeconds: 259_200 });
  });

  test('when KAFKA_BROKERS and KAFKA_REDELIVERY_WINDOW are set, then it is that window', () => {
    const config = loadConfig(commandsConfigSchema, { KAFKA_BROKERS: 'kafka:9092', KAFKA_REDELIVERY_WINDOW: '12h' });
    expect(commandsOptionsFromSettings(config)).toEqual({ redeliveryWindowSeconds: 43_200 });
  });

  test('when KAFKA_REDELIVERY_WINDOW is not a duration, then the error names it', () => {
    expect(() => loadConfig(commandsConfigSchema, { KAFKA_REDELIVERY_WINDOW: 'a week' })).toThrow(
      /KAFKA_REDELIVERY_WINDOW/,
    );
  });
});
