import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writePrivateFile } from '../files';

/**
 * `DATA_DIR/.kickstand.pid`: the embedded store's files must have one writer at a time, so
 * single-machine mode claims the folder and tools that open the store (admin:create) check it.
 */
export function pidFilePath(dataDir: string): string {
  return path.resolve(dataDir, '.kickstand.pid');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live Kickstand using this data folder, if there is one (a stale file is ignored). */
export async function runningPid(dataDir: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(pidFilePath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
}

/** Claims the data folder for this process; throws when another live Kickstand holds it. */
export async function claimDataDir(dataDir: string): Promise<() => Promise<void>> {
  const other = await runningPid(dataDir);
  if (other !== undefined) {
    throw new Error(
      `Kickstand is already running with DATA_DIR=${dataDir} (pid ${other}). Stop it first, or use another DATA_DIR.`,
    );
  }
  // the data folder itself becomes owner-only (0700), as everything in it
  await writePrivateFile(pidFilePath(dataDir), `${process.pid}\n`);
  return () => rm(pidFilePath(dataDir), { force: true });
}
