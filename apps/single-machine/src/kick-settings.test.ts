import { loadConfig } from '@kickstand/platform/config';
import { singleMachineConfigSchema } from './config';
import { kickSettings } from './single-machine';

describe('the OAuth redirect URI in single-machine mode', () => {
  const ports = { gateway: 8080, auth: 0, commands: 0, 'kick-link': 0, 'bot-runner': 0, games: 0, realtime: 0 };
  const realKick = { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret', PORT: '8080' };

  test('when real Kick is set up without KICK_REDIRECT_URI, then the redirect URI is on the port the gateway listens on', () => {
    const config = loadConfig(singleMachineConfigSchema, realKick);

    expect(kickSettings(config, ports).KICK_REDIRECT_URI).toBe('http://localhost:8080/api/kick/oauth/callback');
  });

  test('when PUBLIC_URL is set, then the redirect URI is on it; an explicit KICK_REDIRECT_URI wins over both', () => {
    const onPublic = loadConfig(singleMachineConfigSchema, { ...realKick, PUBLIC_URL: 'https://kickstand.example' });
    const explicit = loadConfig(singleMachineConfigSchema, {
      ...realKick,
      PUBLIC_URL: 'https://kickstand.example',
      KICK_REDIRECT_URI: 'http://localhost/api/kick/oauth/callback',
    });

    expect(kickSettings(onPublic, ports).KICK_REDIRECT_URI).toBe('https://kickstand.example/api/kick/oauth/callback');
    expect(kickSettings(explicit, ports).KICK_REDIRECT_URI).toBe('http://localhost/api/kick/oauth/callback');
  });

  test('when the sandbox stands in for Kick, then its callback is on the gateway port too', () => {
    const config = loadConfig(singleMachineConfigSchema, { PORT: '8080' });

    expect(kickSettings(config, { ...ports, 'kick-sandbox': 3100 }).KICK_REDIRECT_URI).toBe(
      'http://localhost:8080/api/kick/oauth/callback',
    );
  });
});
