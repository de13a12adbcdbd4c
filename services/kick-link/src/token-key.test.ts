import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '@kickstand/platform/config';
import { createSilentLogger } from '@kickstand/platform/log';
import { createTempDirs, createTestPlatform, type TestPlatform } from '@kickstand/platform/testing';
import { createKickLinkRepository, type KickLinkRepository, type MetaDoc } from './repository';
import { createTokenCipher, generateEncryptionKey } from './token-crypto';
import { loadTokenKey, storedKeyId, tokenKeyFileIn } from './token-key';

const modeOf = async (target: string) => (await stat(target)).mode & 0o777;

describe('the Kick token encryption key', () => {
  const dirs = createTempDirs('token-key');
  let platform: TestPlatform;
  let repo: KickLinkRepository;
  let dataDir: string;
  let keyFile: string;
  const log = createSilentLogger();

  beforeEach(async () => {
    platform = await createTestPlatform('kick-link');
    repo = createKickLinkRepository(platform.store, { oauthStateSeconds: 600 });
    dataDir = await dirs.make();
    keyFile = tokenKeyFileIn(dataDir);
  });

  afterEach(async () => {
    await platform.close();
    await dirs.removeAll();
  });

  const load = (overrides: { key?: Buffer; isProduction?: boolean } = {}) =>
    loadTokenKey({
      key: overrides.key,
      isProduction: overrides.isProduction ?? false,
      keyFile,
      meta: repo.meta,
      log,
    });
  const storedKeys = () => platform.store.collection<MetaDoc>('kick-link-meta').find({});

  test('when KICK_TOKEN_ENCRYPTION_KEY is set, then it is the key and no file is made', async () => {
    const key = generateEncryptionKey();
    expect((await load({ key })).equals(key)).toBe(true);
    await expect(stat(keyFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('when no key is set outside production, then one is generated into DATA_DIR/keys (0600, folder 0700), not the store, and kept across starts', async () => {
    const first = await load();
    expect(keyFile).toBe(path.join(dataDir, 'keys', 'kick-token-encryption.key'));
    expect(await modeOf(keyFile)).toBe(0o600);
    expect(await modeOf(path.dirname(keyFile))).toBe(0o700);
    expect((await readFile(keyFile, 'utf8')).trim()).toBe(first.toString('base64'));
    expect(await storedKeys()).toEqual([]);
    expect((await load()).equals(first)).toBe(true);
  });

  test('when an older version kept the key in the store, then the first start moves it to the file and deletes it from the store, and old tokens still open', async () => {
    const oldKey = generateEncryptionKey();
    const sealed = createTokenCipher(oldKey).encrypt('kick-access-token', 'u-1:access');
    await platform.store.collection<MetaDoc>('kick-link-meta').insertOne({
      _id: storedKeyId,
      value: oldKey.toString('base64'),
    });

    const key = await load();

    expect(createTokenCipher(key).decrypt(sealed, 'u-1:access')).toBe('kick-access-token');
    expect((await readFile(keyFile, 'utf8')).trim()).toBe(oldKey.toString('base64'));
    expect(await modeOf(keyFile)).toBe(0o600);
    expect(await storedKeys()).toEqual([]);
    // and the next start reads the file
    expect((await load()).equals(oldKey)).toBe(true);
  });

  test('when the move was cut short (file written, store copy left), then the next start finishes it', async () => {
    const oldKey = generateEncryptionKey();
    await load(); // makes the folder
    await writeFile(keyFile, `${oldKey.toString('base64')}\n`);
    await platform.store.collection<MetaDoc>('kick-link-meta').insertOne({
      _id: storedKeyId,
      value: oldKey.toString('base64'),
    });
    expect((await load()).equals(oldKey)).toBe(true);
    expect(await storedKeys()).toEqual([]);
  });

  test('when the file and the store hold different keys, then the file is used and the store copy is not destroyed', async () => {
    const fileKey = await load();
    const other = generateEncryptionKey().toString('base64');
    await platform.store.collection<MetaDoc>('kick-link-meta').insertOne({ _id: storedKeyId, value: other });
    expect((await load()).equals(fileKey)).toBe(true);
    expect(await storedKeys()).toEqual([{ _id: storedKeyId, value: other }]);
  });

  test('when the key file holds something that is not a key, then start-up stops naming the file rather than replacing it', async () => {
    await load();
    await writeFile(keyFile, 'not a key');
    await expect(load()).rejects.toBeInstanceOf(ConfigError);
    await expect(load()).rejects.toThrow(keyFile);
    expect(await readFile(keyFile, 'utf8')).toBe('not a key');
  });

  test('when NODE_ENV is production and no key is set, then start-up refuses, naming KICK_TOKEN_ENCRYPTION_KEY', async () => {
    await expect(load({ isProduction: true })).rejects.toThrow(/KICK_TOKEN_ENCRYPTION_KEY: required in production/);
    await expect(stat(keyFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
