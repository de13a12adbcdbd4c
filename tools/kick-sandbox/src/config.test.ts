import { generateKeyPairSync } from 'node:crypto';
import { loadConfig } from '@kickstand/platform/config';
import { kickSandboxConfigSchema, kickSandboxOptionsFromSettings } from './config';
import { realKickPreset } from './real-kick';

describe('kick sandbox config', () => {
  test('when nothing is set, then the defaults match what kick-link uses in single-machine mode', () => {
    const config = loadConfig(kickSandboxConfigSchema, {});
    expect(kickSandboxOptionsFromSettings(config, config.PORT)).toEqual({
      publicUrl: 'http://localhost:3100',
      app: {
        clientId: 'kickstand-local',
        clientSecret: 'kickstand-local-secret',
        name: 'Kickstand (local)',
        redirectUris: ['http://localhost:3000/api/kick/oauth/callback'],
        webhookUrl: 'http://localhost:3000/api/kick/webhook',
      },
      tokens: { userAccessSeconds: 7200, appAccessSeconds: 5184000, refreshGraceSeconds: 60 },
      subscriptionLimit: 1000,
      chatDailyQuota: null,
    });
  });

  test('when variables are set, then they are used, redirect URIs split on commas', () => {
    const config = loadConfig(kickSandboxConfigSchema, {
      PORT: '4100',
      KICK_SANDBOX_REDIRECT_URI: 'http://localhost:3000/a, http://localhost:5173/b',
      KICK_SANDBOX_CHAT_DAILY_QUOTA: '50',
      KICK_SANDBOX_PUBLIC_URL: 'http://sandbox.local:4100',
    });
    const options = kickSandboxOptionsFromSettings(config, config.PORT);
    expect(options.app.redirectUris).toEqual(['http://localhost:3000/a', 'http://localhost:5173/b']);
    expect(options.chatDailyQuota).toBe(50);
    expect(options.publicUrl).toBe('http://sandbox.local:4100');
  });

  test('when a signing key and the reply leniency are set, then both reach the options', () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const config = loadConfig(kickSandboxConfigSchema, {
      KICK_SANDBOX_SIGNING_KEY: Buffer.from(privateKey).toString('base64'),
      KICK_SANDBOX_ACCEPT_UNKNOWN_REPLY_TARGETS: 'true',
    });
    const options = kickSandboxOptionsFromSettings(config, config.PORT);
    expect(options.signingKeyPem).toBe(privateKey.trim());
    expect(options.acceptsUnknownReplyTargets).toBe(true);
    expect(() => loadConfig(kickSandboxConfigSchema, { KICK_SANDBOX_SIGNING_KEY: 'not a key' })).toThrow(
      /KICK_SANDBOX_SIGNING_KEY/,
    );
  });

  test('when KICK_SANDBOX_REAL_KICK is on, then the whole run starts with the real Kick preset; off, without', () => {
    for (const value of ['1', 'true', 'yes']) {
      const config = loadConfig(kickSandboxConfigSchema, { KICK_SANDBOX_REAL_KICK: value });
      expect(kickSandboxOptionsFromSettings(config, config.PORT).realKick).toEqual(realKickPreset);
    }
    const off = loadConfig(kickSandboxConfigSchema, { KICK_SANDBOX_REAL_KICK: '0' });
    expect(kickSandboxOptionsFromSettings(off, off.PORT)).not.toHaveProperty('realKick');
    expect(() => loadConfig(kickSandboxConfigSchema, { KICK_SANDBOX_REAL_KICK: 'sometimes' })).toThrow(
      /KICK_SANDBOX_REAL_KICK/,
    );
  });

  test('when a URL is not http(s), then loading fails naming the variable', () => {
    expect(() => loadConfig(kickSandboxConfigSchema, { KICK_SANDBOX_WEBHOOK_URL: 'ftp://x' })).toThrow(
      /KICK_SANDBOX_WEBHOOK_URL/,
    );
  });
});
