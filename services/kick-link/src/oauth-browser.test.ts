import {
  browserCookieName,
  browserCookieSettings,
  browserKeyHash,
  cookieValue,
  isSameBrowser,
  newBrowserKey,
} from './oauth-browser';

describe('the browser key', () => {
  test('when a key is made, then it is 43 base64url characters and never the same twice', () => {
    const first = newBrowserKey();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newBrowserKey()).not.toBe(first);
  });

  test('when the browser brings the key whose hash the state keeps, then it is the same browser', () => {
    const key = newBrowserKey();
    expect(isSameBrowser(browserKeyHash(key), key)).toBe(true);
  });

  test.each([
    ['another key', browserKeyHash('another key'), 'the key'],
    ['no key', browserKeyHash('the key'), undefined],
    ['an empty key', browserKeyHash('the key'), ''],
    ['a state stored before the binding (no hash)', undefined, 'the key'],
    ['a stored hash of another length', 'abcd', 'the key'],
  ])('when the browser brings %s, then it is not the same browser', (_name, stored, presented) => {
    expect(isSameBrowser(stored, presented)).toBe(false);
  });

  test('when the hash is stored, then it is the sha256 of the key in hex, never the key', () => {
    expect(browserKeyHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('cookieValue', () => {
  test.each([
    ['kickstand_oauth=k1', 'k1'],
    ['a=1; kickstand_oauth=k1; b=2', 'k1'],
    ['kickstand_oauth_bot=k2;kickstand_oauth=k1', 'k1'],
    ['xkickstand_oauth=k1', undefined],
    ['kickstand_oauth_bot=k2', undefined],
    ['', undefined],
  ])('when the Cookie header is "%s", then the value is %s', (header, expected) => {
    expect(cookieValue(header, 'kickstand_oauth')).toBe(expected);
  });

  test('when there is no Cookie header, then there is no value', () => {
    expect(cookieValue(undefined, 'kickstand_oauth')).toBeUndefined();
  });
});

describe('browserCookieSettings', () => {
  test('when the redirect URI is https, then the cookie is Secure and scoped to the callback path', () => {
    expect(browserCookieSettings('https://kickstand.example/api/kick/oauth/callback', 600)).toEqual({
      secure: true,
      path: '/api/kick/oauth/callback',
      maxAgeSeconds: 600,
    });
  });

  test('when the redirect URI is plain http (local), then the cookie is not Secure, or the browser would drop it', () => {
    expect(browserCookieSettings('http://localhost:3000/api/kick/oauth/callback', 300)).toEqual({
      secure: false,
      path: '/api/kick/oauth/callback',
      maxAgeSeconds: 300,
    });
  });

  test('when each flow has its cookie, then their names differ', () => {
    expect([browserCookieName('streamer'), browserCookieName('bot-account')]).toEqual([
      'kickstand_oauth',
      'kickstand_oauth_bot',
    ]);
  });
});
