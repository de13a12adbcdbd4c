import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError, loadConfig } from '@kickstand/platform/config';
import {
  kickLinkConfigSchema,
  kickLinkOptionsFromSettings,
  kickLinkSettingsSchema,
  webhookSpoolFromConfig,
} from './config';

const key = randomBytes(32);

describe('kick-link configuration', () => {
  test('when only the client id and secret are set, then the defaults point at real Kick and the bot sender', () => {
    const config = loadConfig(kickLinkConfigSchema, { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret' });

    expect(config).toMatchObject({
      PORT: 3003,
      KICK_OAUTH_URL: 'https://id.kick.com',
      KICK_API_URL: 'https://api.kick.com/public/v1',
      KICK_CHAT_SENDER: 'auto',
    });
    expect(kickLinkOptionsFromSettings(config)).toEqual({
      kick: {
        clientId: 'id',
        clientSecret: 'secret',
        redirectUri: 'http://localhost:3000/api/kick/oauth/callback',
        oauthUrl: 'https://id.kick.com',
        apiUrl: 'https://api.kick.com/public/v1',
      },
      tokenEncryptionKey: undefined,
      // a generated key is kept apart from the store, under the data folder
      tokenKeyFile: path.resolve('data', 'keys', 'kick-token-encryption.key'),
      isProduction: false,
      chatSender: 'auto',
      botUsername: undefined,
      deliveryHealth: { reconcileIntervalMs: 600_000 },
      http: { maxConnections: 32 },
    });
  });

  test('when PUBLIC_URL is set, then the redirect URI is its OAuth callback; KICK_REDIRECT_URI still wins', () => {
    const base = { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret' };

    const onPublicUrl = loadConfig(kickLinkConfigSchema, { ...base, PUBLIC_URL: 'https://kickstand.example/' });
    const explicit = loadConfig(kickLinkConfigSchema, {
      ...base,
      PUBLIC_URL: 'https://kickstand.example',
      KICK_REDIRECT_URI: 'https://login.kickstand.example/api/kick/oauth/callback',
    });
    const empty = loadConfig(kickLinkConfigSchema, { ...base, PUBLIC_URL: '', KICK_REDIRECT_URI: '' });

    expect(kickLinkOptionsFromSettings(onPublicUrl).kick.redirectUri).toBe(
      'https://kickstand.example/api/kick/oauth/callback',
    );
    expect(kickLinkOptionsFromSettings(explicit).kick.redirectUri).toBe(
      'https://login.kickstand.example/api/kick/oauth/callback',
    );
    expect(kickLinkOptionsFromSettings(empty).kick.redirectUri).toBe('http://localhost:3000/api/kick/oauth/callback');
  });

  test('when the client id and secret are missing, then the error names both', () => {
    expect(() => loadConfig(kickLinkConfigSchema, {})).toThrow(/KICK_CLIENT_ID[\s\S]*KICK_CLIENT_SECRET/);
    expect(() => kickLinkOptionsFromSettings(kickLinkSettingsSchema.parse({}))).toThrow(ConfigError);
  });

  test('when NODE_ENV is production and no encryption key is set, then start-up stops naming KICK_TOKEN_ENCRYPTION_KEY', () => {
    const env = { NODE_ENV: 'production', KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret' };
    expect(() => loadConfig(kickLinkConfigSchema, env)).toThrow(/KICK_TOKEN_ENCRYPTION_KEY: required in production/);
  });

  test('when the encryption key is given as base64 or hex, then the options carry its 32 bytes', () => {
    for (const text of [key.toString('base64'), key.toString('hex')]) {
      const config = loadConfig(kickLinkConfigSchema, {
        NODE_ENV: 'production',
        KICK_CLIENT_ID: 'id',
        KICK_CLIENT_SECRET: 'secret',
        KICK_TOKEN_ENCRYPTION_KEY: text,
      });
      const options = kickLinkOptionsFromSettings(config);
      expect(options.tokenEncryptionKey?.equals(key)).toBe(true);
      expect(options.isProduction).toBe(true);
    }
  });

  test('when the encryption key is not 32 bytes, then the error names it without quoting it', () => {
    const config = loadConfig(kickLinkConfigSchema, {
      KICK_CLIENT_ID: 'id',
      KICK_CLIENT_SECRET: 's',
      KICK_TOKEN_ENCRYPTION_KEY: 'secret-but-short',
    });
    let message = '';
    try {
      kickLinkOptionsFromSettings(config);
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain(
      'KICK_TOKEN_ENCRYPTION_KEY: must be 32 bytes: base64 (44 characters) or 64 hex digits (value not shown)',
    );
    expect(message).not.toContain('secret-but-short');
  });

  test('when the sandbox is used, then the URLs, the sender and the bot name come from the settings', () => {
    const settings = kickLinkSettingsSchema.parse({
      KICK_CLIENT_ID: 'kickstand-local',
      KICK_CLIENT_SECRET: 'kickstand-local-secret',
      KICK_OAUTH_URL: 'http://localhost:3100',
      KICK_API_URL: 'http://localhost:3100/public/v1',
      KICK_CHAT_SENDER: 'user',
      KICK_BOT_USERNAME: 'kickstand_app',
    });
    expect(kickLinkOptionsFromSettings(settings)).toMatchObject({
      kick: { oauthUrl: 'http://localhost:3100', apiUrl: 'http://localhost:3100/public/v1' },
      chatSender: 'user',
      botUsername: 'kickstand_app',
    });
  });

  test('when KICK_SUBSCRIPTION_CHECK_MINUTES is set, then the reconcile interval follows it; when it is not a whole number from 1 to 1440, then the error names it', () => {
    const config = loadConfig(kickLinkConfigSchema, {
      KICK_CLIENT_ID: 'id',
      KICK_CLIENT_SECRET: 's',
      KICK_SUBSCRIPTION_CHECK_MINUTES: '3',
    });
    expect(kickLinkOptionsFromSettings(config).deliveryHealth).toEqual({ reconcileIntervalMs: 180_000 });
    for (const bad of ['0', '1441', '2.5', 'often']) {
      expect(() =>
        loadConfig(kickLinkConfigSchema, {
          KICK_CLIENT_ID: 'id',
          KICK_CLIENT_SECRET: 's',
          KICK_SUBSCRIPTION_CHECK_MINUTES: bad,
        }),
      ).toThrow(/KICK_SUBSCRIPTION_CHECK_MINUTES/);
    }
  });

  test('when KICK_MAX_CONNECTIONS is set, then Kick gets at most that many connections; unset, 32; when it is not a whole number from 1 to 1024, then the error names it', () => {
    const base = { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 's' };
    expect(kickLinkOptionsFromSettings(loadConfig(kickLinkConfigSchema, base)).http).toEqual({ maxConnections: 32 });
    const config = loadConfig(kickLinkConfigSchema, { ...base, KICK_MAX_CONNECTIONS: '8' });
    expect(kickLinkOptionsFromSettings(config).http).toEqual({ maxConnections: 8 });
    for (const bad of ['0', '1025', '2.5', 'many']) {
      expect(() => loadConfig(kickLinkConfigSchema, { ...base, KICK_MAX_CONNECTIONS: bad })).toThrow(
        /KICK_MAX_CONNECTIONS: a whole number from 1 to 1024/,
      );
    }
  });

  test('when KICK_CHAT_SENDER is neither bot nor user, then the error names it', () => {
    expect(() =>
      loadConfig(kickLinkConfigSchema, { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 's', KICK_CHAT_SENDER: 'robot' }),
    ).toThrow(/KICK_CHAT_SENDER/);
  });

  describe('the webhook spool', () => {
    const base = { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret' };

    test('when the bus is in-process (no KAFKA_BROKERS), then there is no spool', () => {
      expect(webhookSpoolFromConfig(loadConfig(kickLinkConfigSchema, base))).toBeUndefined();
    });

    test('when on Kafka, then the spool is under DATA_DIR, holding 256 MiB, unless SPOOL_DIR and SPOOL_MAX_BYTES say otherwise', () => {
      const kafka = { ...base, KAFKA_BROKERS: 'kafka:9092', DATA_DIR: '/var/lib/kickstand' };

      const byDefault = webhookSpoolFromConfig(loadConfig(kickLinkConfigSchema, kafka));
      const told = webhookSpoolFromConfig(
        loadConfig(kickLinkConfigSchema, { ...kafka, SPOOL_DIR: '/spool', SPOOL_MAX_BYTES: '10485760' }),
      );

      expect(byDefault).toEqual({ dir: path.resolve('/var/lib/kickstand/kick-link-spool'), maxBytes: 268_435_456 });
      expect(told).toEqual({ dir: path.resolve('/spool'), maxBytes: 10_485_760 });
    });

    test('when SPOOL_MAX_BYTES is under 1 MiB, then the configuration is refused naming it', () => {
      expect(() => loadConfig(kickLinkConfigSchema, { ...base, SPOOL_MAX_BYTES: '1000' })).toThrow(
        /SPOOL_MAX_BYTES: a whole number of bytes, at least 1048576 \(1 MiB\)/,
      );
    });
  });
});
