import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const algorithm = 'aes-256-gcm';
const keyBytes = 32;
const ivBytes = 12;
const tagBytes = 16;
const version = 'v1';

/** Encrypts Kick tokens at rest: AES-256-GCM, a random 12-byte IV per value, the auth tag kept with it. */
export interface TokenCipher {
  /**
   * `v1.<iv>.<tag>.<ciphertext>` (base64url). `context` is bound as associated data (e.g. the user id
   * and the token kind), so a value copied to another link or field does not decrypt.
   */
  encrypt(plaintext: string, context?: string): string;
  /** Throws when the value was altered, was made with another key or belongs to another context. */
  decrypt(sealed: string, context?: string): string;
}

export class TokenDecryptionError extends Error {
  constructor(message = 'the stored Kick token could not be decrypted (altered, or another key)') {
    super(message);
    this.name = 'TokenDecryptionError';
  }
}

/** 32 bytes given as base64 (standard or url-safe, 43–44 characters) or as 64 hex digits. */
export function parseEncryptionKey(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const decoded = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (decoded.length === keyBytes) return decoded;
  }
  throw new Error('the key must be 32 bytes: base64 (44 characters) or 64 hex digits');
}

export function generateEncryptionKey(): Buffer {
  return randomBytes(keyBytes);
}

export function createTokenCipher(key: Buffer): TokenCipher {
  if (key.length !== keyBytes) throw new Error(`an AES-256-GCM key is ${keyBytes} bytes, got ${key.length}`);
  // a copy, so the caller zeroing or reusing its buffer cannot change ours
  const secret = Buffer.from(key);
  return {
    encrypt(plaintext, context = '') {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv(algorithm, secret, iv, { authTagLength: tagBytes });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [version, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    decrypt(sealed, context = '') {
      const parts = sealed.split('.');
      const [given, ivText, tagText, ciphertextText] = parts;
      if (parts.length !== 4 || given !== version || !ivText || !tagText || ciphertextText === undefined) {
        throw new TokenDecryptionError('the stored Kick token is not in the expected format');
      }
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== ivBytes || tag.length !== tagBytes) {
        throw new TokenDecryptionError('the stored Kick token is not in the expected format');
      }
      try {
        const decipher = createDecipheriv(algorithm, secret, iv, { authTagLength: tagBytes });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new TokenDecryptionError();
      }
    },
  };
}
