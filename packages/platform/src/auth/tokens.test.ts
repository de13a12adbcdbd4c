import { createHmac } from 'node:crypto';
import { createFakeClock } from '../testing/fake-clock';
import { generateJwtKeyPair } from './keys';
import { bearerToken, createTokenSigner, createTokenVerifier, type Identity } from './tokens';

const keys = generateJwtKeyPair();
const otherKeys = generateJwtKeyPair();
const alice: Identity = { userId: 'u-1', username: 'alice', role: 'USER' };

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const unsignedToken = (header: object, payload: object, signature = '') =>
  `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}.${signature}`;

describe('sign-in tokens', () => {
  const clock = createFakeClock(new Date('2026-06-01T12:00:00Z'));
  const signer = createTokenSigner(keys.privateKeyPem, { expiresInSeconds: 24 * 3600, clock });
  const verifier = createTokenVerifier(keys.publicKeyPem, clock);
  const now = Math.floor(clock.now().getTime() / 1000);
  const claims = {
    sub: 'u-1',
    username: 'alice',
    role: 'USER',
    iat: now,
    exp: now + 60,
    iss: 'kickstand-auth',
    aud: 'kickstand',
  };

  test('when a token signed by auth is verified, then the identity comes back', () => {
    expect(verifier.verify(signer.sign(alice))).toEqual(alice);
  });

  test('when there is no token, then 401 Authentication required', () => {
    expect(() => verifier.verify(undefined)).toThrow(
      expect.objectContaining({ status: 401, message: 'Authentication required' }),
    );
  });

  test.each([
    ['malformed', 'not-a-jwt'],
    ['alg none', unsignedToken({ alg: 'none', typ: 'JWT' }, claims)],
    [
      'HS256 signed with the public key as the secret',
      (() => {
        const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
        return `${head}.${createHmac('sha256', keys.publicKeyPem).update(head).digest('base64url')}`;
      })(),
    ],
    [
      'signed with another key',
      createTokenSigner(otherKeys.privateKeyPem, { expiresInSeconds: 60, clock }).sign(alice),
    ],
  ])('when the token is %s, then 401', (_case, token) => {
    expect(() => verifier.verify(token)).toThrow(
      expect.objectContaining({ status: 401, message: 'Invalid or expired token' }),
    );
  });

  test('when the token has expired, then 401', () => {
    const token = signer.sign(alice);
    const later = createFakeClock(new Date('2026-06-02T12:00:01Z'));
    expect(() => createTokenVerifier(keys.publicKeyPem, later).verify(token)).toThrow(
      expect.objectContaining({ status: 401 }),
    );
  });

  test('when the payload was edited, then 401', () => {
    const [head, , signature] = signer.sign(alice).split('.');
    const forged = `${head}.${base64url(JSON.stringify({ ...claims, role: 'SUPER_ADMIN', exp: now + 3600 }))}.${signature}`;
    expect(() => verifier.verify(forged)).toThrow(expect.objectContaining({ status: 401 }));
  });

  test('when the role claim is unknown, then 401', () => {
    const odd = createTokenSigner(keys.privateKeyPem, { expiresInSeconds: 60, clock }).sign({
      ...alice,
      role: 'ROOT' as 'USER',
    });
    expect(() => verifier.verify(odd)).toThrow(expect.objectContaining({ status: 401 }));
  });

  test('when the Authorization header is read, then only a Bearer token counts', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
