import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateJwtKeyPair } from '../auth/keys';
import { claimDataDir, pidFilePath } from '../lifecycle/data-dir-lock';
import { createTempDirs } from '../testing/temp-dirs';
import { ensurePrivateDir, writePrivateFile } from './private-files';

const modeOf = async (target: string) => (await stat(target)).mode & 0o777;

const dirs = createTempDirs('files');
let root: string;
let previousUmask: number;

beforeEach(async () => {
  root = await dirs.make();
  // the most permissive umask: every mode below must come from the code, not from the umask
  previousUmask = process.umask(0);
});

afterEach(async () => {
  process.umask(previousUmask);
  await dirs.removeAll();
});

describe('private files under the data folder', () => {
  test('when a file is written in folders that do not exist yet, then the file is 0600 and each folder 0700', async () => {
    const file = path.join(root, 'data', 'keys', 'secret.key');
    await writePrivateFile(file, 'k');
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(path.join(root, 'data', 'keys'))).toBe(0o700);
    expect(await modeOf(path.join(root, 'data'))).toBe(0o700);
    expect(await readFile(file, 'utf8')).toBe('k');
  });

  test('when a world-readable file and folder are there already, then writing makes them owner-only', async () => {
    const dir = path.join(root, 'data');
    await mkdir(dir, { mode: 0o755 });
    await writeFile(path.join(dir, 'f'), 'old', { mode: 0o644 });
    await writePrivateFile(path.join(dir, 'f'), 'new');
    expect(await modeOf(path.join(dir, 'f'))).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  });

  test('when an existing folder is made private, then it becomes 0700', async () => {
    const dir = path.join(root, 'open');
    await mkdir(dir, { mode: 0o777 });
    await ensurePrivateDir(dir);
    expect(await modeOf(dir)).toBe(0o700);
  });

  test('when the sign-in keys are made under DATA_DIR/keys, then both files are 0600 and the folder 0700', async () => {
    const dir = path.join(root, 'data', 'keys');
    await loadOrCreateJwtKeyPair(dir);
    expect(await modeOf(path.join(dir, 'jwt-private.pem'))).toBe(0o600);
    expect(await modeOf(path.join(dir, 'jwt-public.pem'))).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  });

  test('when sign-in keys made world-readable by an older version are loaded, then they are tightened and kept', async () => {
    const dir = path.join(root, 'keys');
    const made = await loadOrCreateJwtKeyPair(dir);
    await chmod(dir, 0o755);
    await chmod(path.join(dir, 'jwt-private.pem'), 0o644);
    expect(await loadOrCreateJwtKeyPair(dir)).toEqual(made);
    expect(await modeOf(path.join(dir, 'jwt-private.pem'))).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  });

  test('when single-machine mode claims the data folder, then the folder is 0700 and the pid file 0600', async () => {
    const dataDir = path.join(root, 'data');
    const release = await claimDataDir(dataDir);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(pidFilePath(dataDir))).toBe(0o600);
    await release();
  });
});
