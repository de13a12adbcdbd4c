import { randomBytes } from 'node:crypto';
import { createTokenCipher, parseEncryptionKey, TokenDecryptionError } from './token-crypto';

const key = randomBytes(32);
const cipher = createTokenCipher(key);

/** Flips one character of one dot-separated part (v1.iv.tag.ciphertext). */
function tamper(sealed: string, part: number): string {
  const parts = sealed.split('.');
  const text = parts[part] ?? '';
  const first = text[0] === 'A' ? 'B' : 'A';
  parts[part] = `${first}${text.slice(1)}`;
  return parts.join('.');
}

describe('token crypto (AES-256-GCM)', () => {
  test('when a token is encrypted and decrypted, then it comes back unchanged', () => {
    const token = 'eyJhbGciOi.some-kick-access-token/with+odd=chars';
    expect(cipher.decrypt(cipher.encrypt(token, 'u1:access'), 'u1:access')).toBe(token);
    expect(cipher.decrypt(cipher.encrypt(''))).toBe('');
  });

  test('when the same token is encrypted twice, then the IVs and ciphertexts differ and the token is not visible', () => {
    const first = cipher.encrypt('same-token');
    const second = cipher.encrypt('same-token');
    expect(first).not.toBe(second);
    expect(first.split('.')[1]).not.toBe(second.split('.')[1]);
    expect(first).not.toContain('same-token');
    expect(Buffer.from(first.split('.')[1] ?? '', 'base64url')).toHaveLength(12);
    expect(Buffer.from(first.split('.')[2] ?? '', 'base64url')).toHaveLength(16);
  });

  test.each([
    ['the IV', 1],
    ['the auth tag', 2],
    ['the ciphertext', 3],
  ])('when %s was altered, then decrypting throws', (_name, part) => {
    const sealed = cipher.encrypt('a-token-worth-protecting', 'u1:refresh');
    expect(() => cipher.decrypt(tamper(sealed, part), 'u1:refresh')).toThrow(TokenDecryptionError);
  });

  test('when the value is not in the format, then decrypting throws', () => {
    expect(() => cipher.decrypt('plain-token')).toThrow(TokenDecryptionError);
    expect(() => cipher.decrypt('v2.a.b.c')).toThrow(TokenDecryptionError);
  });

  test('when another key decrypts, then it throws', () => {
    const sealed = cipher.encrypt('a-token');
    expect(() => createTokenCipher(randomBytes(32)).decrypt(sealed)).toThrow(TokenDecryptionError);
  });

  test("when a value is moved to another user's link or field, then it does not decrypt", () => {
    const sealed = cipher.encrypt('a-token', 'u1:access');
    expect(() => cipher.decrypt(sealed, 'u2:access')).toThrow(TokenDecryptionError);
    expect(() => cipher.decrypt(sealed, 'u1:refresh')).toThrow(TokenDecryptionError);
  });

  test('when the key is not 32 bytes, then the cipher refuses it', () => {
    expect(() => createTokenCipher(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('parseEncryptionKey', () => {
  test('when the key is base64 or 64 hex digits of 32 bytes, then it is decoded', () => {
    expect(parseEncryptionKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parseEncryptionKey(key.toString('base64url')).equals(key)).toBe(true);
    expect(parseEncryptionKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseEncryptionKey(` ${key.toString('hex').toUpperCase()}\n`).equals(key)).toBe(true);
  });

  test.each([
    ['too short', randomBytes(16).toString('base64')],
    ['too long', randomBytes(48).toString('base64')],
    ['not base64', '!'.repeat(44)],
    ['63 hex digits', 'a'.repeat(63)],
    ['a passphrase', 'correct horse battery staple'],
  ])('when the key is %s, then it is refused', (_name, value) => {
    expect(() => parseEncryptionKey(value)).toThrow(/32 bytes/);
  });
});
