import { z } from 'zod';
import { ConfigError, loadConfig, platformConfigSchema, portSchema } from './load-config';

const serviceSchema = platformConfigSchema.extend({ PORT: portSchema.default(3002) });

describe('loadConfig', () => {
  test('when the environment is empty, then the embedded defaults are used', () => {
    const config = loadConfig(serviceSchema, {});
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: 3002,
      DATA_DIR: 'data',
    });
    expect(config.KAFKA_BROKERS).toBeUndefined();
    expect(config.MONGO_URL).toBeUndefined();
  });

  test('when a value is wrong, then the error names the variable and what it got', () => {
    expect(() => loadConfig(serviceSchema, { PORT: 'eighty' })).toThrow(ConfigError);
    try {
      loadConfig(serviceSchema, { PORT: 'eighty', LOG_LEVEL: 'loud' });
    } catch (error) {
      const message = (error as ConfigError).message;
      expect(message).toMatch(/^Invalid configuration:/);
      expect(message).toContain('PORT:');
      expect(message).toContain('got "eighty"');
      expect(message).toContain('LOG_LEVEL:');
    }
  });

  test('when a required variable is missing, then the error says it is missing', () => {
    const schema = z.object({ JWT_SECRET: z.string().min(32) });
    expect(() => loadConfig(schema, {})).toThrow(/JWT_SECRET: .*\(missing\)/);
  });

  test('when KAFKA_BROKERS lists brokers, then they are split and trimmed', () => {
    expect(loadConfig(serviceSchema, { KAFKA_BROKERS: 'a:9092, b:9093' }).KAFKA_BROKERS).toEqual(['a:9092', 'b:9093']);
  });

  test('when KAFKA_BROKERS is not host:port, then the error names it', () => {
    expect(() => loadConfig(serviceSchema, { KAFKA_BROKERS: 'localhost' })).toThrow(/KAFKA_BROKERS/);
  });

  test('when MONGO_URL is not a mongodb URL, then the error names it', () => {
    expect(() => loadConfig(serviceSchema, { MONGO_URL: 'http://x' })).toThrow(/MONGO_URL/);
  });

  test('when a variable is set to the empty string, then it counts as unset', () => {
    const config = loadConfig(serviceSchema, { MONGO_URL: '', KAFKA_BROKERS: '' });
    expect(config.MONGO_URL).toBeUndefined();
    expect(config.KAFKA_BROKERS).toBeUndefined();
  });

  test('when the Kafka consumer timings are set, then they are read in milliseconds, and out-of-range values are refused', () => {
    const config = loadConfig(serviceSchema, {
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '500',
      KAFKA_REBALANCE_TIMEOUT_MS: '',
    });
    expect(config).toMatchObject({
      KAFKA_SESSION_TIMEOUT_MS: 6000,
      KAFKA_HEARTBEAT_INTERVAL_MS: 500,
      KAFKA_REBALANCE_TIMEOUT_MS: 10_000, // unset: the default
    });
    // below the broker's default group.min.session.timeout.ms
    expect(() => loadConfig(serviceSchema, { KAFKA_SESSION_TIMEOUT_MS: '1000' })).toThrow(/KAFKA_SESSION_TIMEOUT_MS/);
    expect(() => loadConfig(serviceSchema, { KAFKA_HEARTBEAT_INTERVAL_MS: 'soon' })).toThrow(
      /KAFKA_HEARTBEAT_INTERVAL_MS/,
    );
  });

  test('when loaded, then the config is frozen', () => {
    expect(Object.isFrozen(loadConfig(serviceSchema, {}))).toBe(true);
  });
});
