import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '@kickstand/platform/config';
import { createPrivateFile, privateFileMode, restrictMode } from '@kickstand/platform/files';
import type { Logger } from '@kickstand/platform/log';
import type { KickLinkRepository } from './repository';
import { generateEncryptionKey, parseEncryptionKey } from './token-crypto';

/** Where a generated key is kept, under the data folder: `DATA_DIR/keys/kick-token-encryption.key`. */
export function tokenKeyFileIn(dataDir: string): string {
  return path.resolve(dataDir, 'keys', 'kick-token-encryption.key');
}

/** Where versions before the key file kept the generated key: in the very store it protects. */
export const storedKeyId = 'token-encryption-key';

export interface TokenKeySources {
  /** KICK_TOKEN_ENCRYPTION_KEY: always wins. */
  key: Buffer | undefined;
  isProduction: boolean;
  /** Outside production without a key: the file a generated key is kept in (0600). */
  keyFile: string | undefined;
  meta: KickLinkRepository['meta'];
  log: Logger;
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return parseEncryptionKey(text);
  } catch {
    // never replaced: the tokens stored under it would be lost for good
    throw new ConfigError([`${file}: not a token encryption key (32 bytes as base64 or 64 hex digits)`]);
  }
}

/**
 * The key for Kick tokens at rest, kept apart from the database it protects:
 * 1. KICK_TOKEN_ENCRYPTION_KEY when set (required in production);
 * 2. else the key file under DATA_DIR/keys, made at the first start (development, single machine);
 * 3. a key an older version generated into the `kick-link-meta` collection is moved into that
 *    file on the first start (so the tokens encrypted with it still open), then deleted from the store.
 */
export async function loadTokenKey(sources: TokenKeySources): Promise<Buffer> {
  const { meta, log, keyFile } = sources;
  if (sources.key) return sources.key;
  if (sources.isProduction) {
    throw new ConfigError([
      'KICK_TOKEN_ENCRYPTION_KEY: required in production: 32 bytes as base64 or 64 hex digits (missing)',
    ]);
  }
  if (!keyFile) {
    throw new ConfigError([
      'KICK_TOKEN_ENCRYPTION_KEY: required without a data folder to keep a generated key in (missing)',
    ]);
  }
  const stored = await meta.get(storedKeyId);
  let key = await readKeyFile(keyFile);
  if (!key) {
    const made = stored === null ? generateEncryptionKey() : Buffer.from(stored, 'base64');
    // another instance sharing the folder may have written one first: then that one is the key
    if (await createPrivateFile(keyFile, `${made.toString('base64')}\n`)) key = made;
    else key = await readKeyFile(keyFile);
    if (!key) throw new Error(`${keyFile} vanished while it was being made`);
    log.warn(
      { keyFile },
      stored === null
        ? 'KICK_TOKEN_ENCRYPTION_KEY is not set: Kick tokens are encrypted with a key generated into the key file (development only)'
        : 'KICK_TOKEN_ENCRYPTION_KEY is not set: the generated key kept in the store was moved to the key file',
    );
  } else {
    await restrictMode(keyFile, privateFileMode);
  }
  if (stored !== null) {
    if (Buffer.from(stored, 'base64').equals(key)) await meta.delete(storedKeyId);
    // two different keys: the tokens are under one of them, and which is not known here; keep both
    else log.error({ keyFile }, 'the key file and the key kept in the store differ: the store copy is kept');
  }
  return key;
}
