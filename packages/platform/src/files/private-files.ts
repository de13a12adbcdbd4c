import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Everything under DATA_DIR is for the Kickstand process only: datafiles with password hashes and
 * encrypted Kick tokens, signing keys, the first admin's password. Files are 0600 and folders
 * 0700 whatever the umask: a mode given at creation is only narrowed by the umask, and a file or
 * folder made before (with the umask's 0644/0755) is tightened by chmod.
 */
export const privateFileMode = 0o600;
export const privateDirMode = 0o700;

/** Makes `dir` (and missing parents) owner-only; an existing `dir` is tightened too. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: privateDirMode });
  await chmod(dir, privateDirMode);
}

/** Writes `file` readable by its owner only, in an owner-only folder. */
export async function writePrivateFile(file: string, data: string): Promise<void> {
  await ensurePrivateDir(path.dirname(file));
  await writeFile(file, data, { mode: privateFileMode });
  // writeFile's mode only applies to a new file
  await chmod(file, privateFileMode);
}

/**
 * Writes `file` (0600, in a 0700 folder) only if it does not exist yet; false when it did, so two
 * processes making the same secret at once keep one of them, never overwrite each other's.
 */
export async function createPrivateFile(file: string, data: string): Promise<boolean> {
  await ensurePrivateDir(path.dirname(file));
  try {
    await writeFile(file, data, { mode: privateFileMode, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  await chmod(file, privateFileMode);
  return true;
}

/** Tightens an existing file or folder to `mode`; one that is not there is left alone. */
export async function restrictMode(target: string, mode: number): Promise<void> {
  try {
    await chmod(target, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
