import { ConfigError, loadConfig } from '@kickstand/platform/config';
import { generateJwtKeyPair } from '@kickstand/platform/auth';
import { testKeyPair } from '@kickstand/platform/testing';
import { authConfigSchema, authOptionsFromConfig, publicKeyOf } from './config';

const keys = testKeyPair();
const base = { JWT_PRIVATE_KEY: keys.privateKeyPem };

describe('auth configuration', () => {
  test('when only the private key is set, then the defaults apply and the public key is derived from it', () => {
    const config = loadConfig(authConfigSchema, base);
    expect(config).toMatchObject({ PORT: 3001, JWT_EXPIRES_IN: 86_400, SUPER_ADMIN_USERNAME: 'admin' });
    expect(config.JWT_PUBLIC_KEY?.trim()).toBe(keys.publicKeyPem.trim());
    expect(authOptionsFromConfig(config)).toEqual({
      jwtPrivateKey: config.JWT_PRIVATE_KEY,
      tokenTtlSeconds: 86_400,
      redeliveryWindowSeconds: 120,
    });
  });

  describe('the redelivery window of counted command executions', () => {
    test('when the bus is in-process, then it is 2 minutes, whatever KAFKA_REDELIVERY_WINDOW says', () => {
      const config = loadConfig(authConfigSchema, { ...base, KAFKA_REDELIVERY_WINDOW: '7d' });
      expect(authOptionsFromConfig(config).redeliveryWindowSeconds).toBe(120);
    });

    test('when KAFKA_BROKERS is set, then it is 3 days by default', () => {
      const config = loadConfig(authConfigSchema, { ...base, KAFKA_BROKERS: 'kafka:9092' });
      expect(authOptionsFromConfig(config).redeliveryWindowSeconds).toBe(259_200);
    });

    test('when KAFKA_BROKERS and KAFKA_REDELIVERY_WINDOW are set, then it is that window', () => {
      const config = loadConfig(authConfigSchema, {
        ...base,
        KAFKA_BROKERS: 'kafka:9092',
        KAFKA_REDELIVERY_WINDOW: '12h',
      });
      expect(authOptionsFromConfig(config).redeliveryWindowSeconds).toBe(43_200);
    });

    test.each(['0', '-1d', 'a week', '3 days'])(
      'when KAFKA_REDELIVERY_WINDOW is %p, then the error names it',
      (value) => {
        expect(() => loadConfig(authConfigSchema, { ...base, KAFKA_REDELIVERY_WINDOW: value })).toThrow(
          /KAFKA_REDELIVERY_WINDOW/,
        );
      },
    );
  });

  test('when the private key is given as base64 of the PEM, then it is read', () => {
    const config = loadConfig(authConfigSchema, {
      JWT_PRIVATE_KEY: Buffer.from(keys.privateKeyPem).toString('base64'),
    });
    expect(config.JWT_PRIVATE_KEY.trim()).toBe(keys.privateKeyPem.trim());
  });

  test('when JWT_PRIVATE_KEY is missing, then the error names it', () => {
    expect(() => loadConfig(authConfigSchema, {})).toThrow(/JWT_PRIVATE_KEY: required: .*\(missing\)/);
  });

  test('when JWT_PUBLIC_KEY is not the other half of the private key, then the error says so', () => {
    expect(() => loadConfig(authConfigSchema, { ...base, JWT_PUBLIC_KEY: generateJwtKeyPair().publicKeyPem })).toThrow(
      /JWT_PUBLIC_KEY: is not the public half of JWT_PRIVATE_KEY/,
    );
    expect(loadConfig(authConfigSchema, { ...base, JWT_PUBLIC_KEY: publicKeyOf(keys.privateKeyPem) })).toBeDefined();
  });

  test.each([
    ['3600', 3600],
    ['90s', 90],
    ['15m', 900],
    ['24h', 86_400],
    ['7d', 604_800],
  ])('when JWT_EXPIRES_IN is %j, then tokens live %d seconds', (value, seconds) => {
    expect(loadConfig(authConfigSchema, { ...base, JWT_EXPIRES_IN: value }).JWT_EXPIRES_IN).toBe(seconds);
  });

  test.each(['0', 'soon', '1w', '-5'])('when JWT_EXPIRES_IN is %j, then the error names it', (value) => {
    expect(() => loadConfig(authConfigSchema, { ...base, JWT_EXPIRES_IN: value })).toThrow(/JWT_EXPIRES_IN/);
  });

  test('when the super admin settings are complete, then they become the factory option', () => {
    const config = loadConfig(authConfigSchema, {
      ...base,
      SUPER_ADMIN_EMAIL: 'root@example.com',
      SUPER_ADMIN_PASSWORD: 'Adm1n!Secret',
      SUPER_ADMIN_USERNAME: 'root',
    });
    expect(authOptionsFromConfig(config).superAdmin).toEqual({
      email: 'root@example.com',
      password: 'Adm1n!Secret',
      username: 'root',
    });
  });

  test('when only one of SUPER_ADMIN_EMAIL and SUPER_ADMIN_PASSWORD is set, then the other is named as missing', () => {
    expect(() =>
      authOptionsFromConfig(loadConfig(authConfigSchema, { ...base, SUPER_ADMIN_EMAIL: 'root@example.com' })),
    ).toThrow(/SUPER_ADMIN_PASSWORD: required with SUPER_ADMIN_EMAIL \(missing\)/);
    expect(() =>
      authOptionsFromConfig(loadConfig(authConfigSchema, { ...base, SUPER_ADMIN_PASSWORD: 'Adm1n!Secret' })),
    ).toThrow(/SUPER_ADMIN_EMAIL: required with SUPER_ADMIN_PASSWORD \(missing\)/);
  });

  test('when SUPER_ADMIN_EMAIL or SUPER_ADMIN_USERNAME is malformed, then the error names it', () => {
    expect(() =>
      loadConfig(authConfigSchema, { ...base, SUPER_ADMIN_EMAIL: 'root', SUPER_ADMIN_PASSWORD: 'Adm1n!Secret' }),
    ).toThrow(/SUPER_ADMIN_EMAIL: must be a valid email address/);
    expect(() => loadConfig(authConfigSchema, { ...base, SUPER_ADMIN_USERNAME: 'no spaces' })).toThrow(
      /SUPER_ADMIN_USERNAME/,
    );
  });

  test('when SUPER_ADMIN_PASSWORD breaks a rule, then the error names the variable and the rule but never the value', () => {
    const config = loadConfig(authConfigSchema, {
      ...base,
      SUPER_ADMIN_EMAIL: 'root@example.com',
      SUPER_ADMIN_PASSWORD: 'weakpassword1',
    });
    let error: unknown;
    try {
      authOptionsFromConfig(config);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(
      'SUPER_ADMIN_PASSWORD: Password must contain at least one uppercase letter (value not shown)',
    );
    expect((error as Error).message).not.toContain('weakpassword1');
  });

  test('when SUPER_ADMIN_PASSWORD meets the rules but is a common password, then the error says so without the value', () => {
    const config = loadConfig(authConfigSchema, {
      ...base,
      SUPER_ADMIN_EMAIL: 'root@example.com',
      SUPER_ADMIN_PASSWORD: 'Password1!',
    });
    expect(() => authOptionsFromConfig(config)).toThrow(
      'SUPER_ADMIN_PASSWORD: Password is too common: choose one that is harder to guess (value not shown)',
    );
  });
});
