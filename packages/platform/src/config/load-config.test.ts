import { z } from 'zod';
import { ConfigError, kafkaSecurity, loadConfig, platformConfigSchema, portSchema } from './load-config';

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

  test('when the topic settings are unset, then the chat topics get 24 partitions and the broker chooses the replication', () => {
    const config = loadConfig(serviceSchema, {});
    expect(config.KAFKA_PARTITIONS).toBe(24);
    expect(config.KAFKA_REPLICATION_FACTOR).toBeUndefined();
  });

  test('when the topic settings are set, then they are read as whole numbers, and nonsense is refused by name', () => {
    expect(loadConfig(serviceSchema, { KAFKA_PARTITIONS: '48', KAFKA_REPLICATION_FACTOR: '3' })).toMatchObject({
      KAFKA_PARTITIONS: 48,
      KAFKA_REPLICATION_FACTOR: 3,
    });
    expect(() => loadConfig(serviceSchema, { KAFKA_PARTITIONS: '0' })).toThrow(/KAFKA_PARTITIONS: .*\(got "0"\)/);
    expect(() => loadConfig(serviceSchema, { KAFKA_PARTITIONS: 'many' })).toThrow(/KAFKA_PARTITIONS/);
    expect(() => loadConfig(serviceSchema, { KAFKA_REPLICATION_FACTOR: '2.5' })).toThrow(/KAFKA_REPLICATION_FACTOR/);
    expect(() => loadConfig(serviceSchema, { KAFKA_REPLICATION_FACTOR: '0' })).toThrow(/KAFKA_REPLICATION_FACTOR/);
  });

  test('when KAFKA_SASL_MECHANISM or KAFKA_SSL is not a known value, then the error names it', () => {
    expect(() => loadConfig(serviceSchema, { KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(/KAFKA_SASL_MECHANISM/);
    expect(() => loadConfig(serviceSchema, { KAFKA_SSL: 'maybe' })).toThrow(/KAFKA_SSL/);
  });

  test('when loaded, then the config is frozen', () => {
    expect(Object.isFrozen(loadConfig(serviceSchema, {}))).toBe(true);
  });
});

describe('kafkaSecurity', () => {
  const noFile = (path: string): string => {
    throw new Error(`ENOENT: no such file, open '${path}'`);
  };

  test('when nothing is set, then the connection is plain', () => {
    expect(kafkaSecurity(loadConfig(serviceSchema, {}), noFile)).toEqual({ ssl: false });
  });

  test('when SCRAM credentials and TLS are set, then both reach the client', () => {
    const config = loadConfig(serviceSchema, {
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'kickstand',
      KAFKA_SASL_PASSWORD: 's3cret',
      KAFKA_SSL: 'true',
    });
    expect(kafkaSecurity(config, noFile)).toEqual({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'kickstand', password: 's3cret' },
    });
  });

  test('when a CA file is given, then its PEM is the CA trusted', () => {
    const config = loadConfig(serviceSchema, { KAFKA_SSL_CA_FILE: '/etc/kafka/ca.pem' });
    expect(kafkaSecurity(config, (path) => `PEM of ${path}`)).toEqual({ ssl: { ca: ['PEM of /etc/kafka/ca.pem'] } });
  });

  test('when a mechanism lacks its user name and password, then both are named as missing', () => {
    const config = loadConfig(serviceSchema, { KAFKA_SASL_MECHANISM: 'scram-sha-256' });
    expect(() => kafkaSecurity(config, noFile)).toThrow(ConfigError);
    expect(() => kafkaSecurity(config, noFile)).toThrow(
      'Invalid configuration:\n' +
        '  KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM=scram-sha-256 (missing)\n' +
        '  KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=scram-sha-256 (missing)',
    );
  });

  test('when credentials are set without a mechanism, then the mechanism is asked for', () => {
    const config = loadConfig(serviceSchema, { KAFKA_SASL_USERNAME: 'kickstand', KAFKA_SASL_PASSWORD: 's3cret' });
    expect(() => kafkaSecurity(config, noFile)).toThrow(/KAFKA_SASL_MECHANISM: required when a SASL user name/);
  });

  test('when the CA file cannot be read, then the error names the variable and the file', () => {
    const config = loadConfig(serviceSchema, { KAFKA_SSL_CA_FILE: '/nope/ca.pem' });
    expect(() => kafkaSecurity(config, noFile)).toThrow(
      /KAFKA_SSL_CA_FILE: cannot be read: .*\(got "\/nope\/ca.pem"\)/,
    );
  });
});
