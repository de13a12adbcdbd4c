import { redactQuery, redactUrl } from './redact-url';

describe('redactUrl', () => {
  test('when the OAuth callback is logged, then the code and state values are hidden and the rest kept', () => {
    expect(redactUrl('/api/kick/oauth/callback?code=abc123&state=s-1&lang=en')).toBe(
      '/api/kick/oauth/callback?code=%5Bredacted%5D&state=%5Bredacted%5D&lang=en',
    );
    expect(redactQuery({ code: 'abc123', state: 's-1', lang: 'en' })).toEqual({
      code: '[redacted]',
      state: '[redacted]',
      lang: 'en',
    });
  });

  test('when a URL has no secret parameter, then it is logged as it is', () => {
    expect(redactUrl('/api/commands?page=2')).toBe('/api/commands?page=2');
    expect(redactUrl('/api/commands')).toBe('/api/commands');
  });
});
