import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One spool directory, one process: two writers would interleave their records and forward each
 * other's. `owner.lock` names the holder (host, pid) and is rewritten every `heartbeatMs`.
 *
 * A lock is taken over when its holder is this very process id on this host (a container or pod
 * restarted: the new process has the old one's host name, and often its pid, 1), a process of this
 * host that no longer runs, or another host that stopped writing it `staleMs` ago (a container
 * replaced by another). Otherwise opening the spool fails, saying who holds it.
 */

export interface SpoolLockOptions {
  /** Default the machine's host name (a container's or pod's own). */
  host?: string;
  /** Default 5000. */
  heartbeatMs?: number;
  /** Default 20000. */
  staleMs?: number;
  /** Wall-clock milliseconds: the holder's heartbeat is compared across processes. */
  now?: () => number;
}

export interface SpoolLock {
  release(): Promise<void>;
}

interface Holder {
  host: string;
  pid: number;
  at: number;
}

export const spoolLockFileName = 'owner.lock';

export async function lockSpoolDir(dir: string, options: SpoolLockOptions = {}): Promise<SpoolLock> {
  const host = options.host ?? hostname();
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const staleMs = options.staleMs ?? 20_000;
  const now = options.now ?? Date.now;
  const file = path.join(dir, spoolLockFileName);
  const me = (): Holder => ({ host, pid: process.pid, at: now() });

  const holder = await readHolder(file);
  if (holder && !isTakeable(holder, host, now(), staleMs)) {
    throw new Error(
      `The spool ${dir} is in use by process ${holder.pid} on ${holder.host}: each instance needs its own spool directory (SPOOL_DIR)`,
    );
  }
  try {
    // with nobody holding it, create it exclusively: of two processes starting together, one wins
    await writeFile(file, JSON.stringify(me()), { flag: holder ? 'w' : 'wx' });
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    const winner = await readHolder(file);
    throw new Error(
      `The spool ${dir} was just taken by process ${winner?.pid ?? '?'} on ${winner?.host ?? '?'}: each instance needs its own spool directory (SPOOL_DIR)`,
    );
  }
  const heartbeat = setInterval(() => {
    writeFile(file, JSON.stringify(me())).catch(() => undefined); // a failing disk shows in the appends
  }, heartbeatMs);
  heartbeat.unref();
  return {
    async release() {
      clearInterval(heartbeat);
      const current = await readHolder(file);
      if (current && current.host === host && current.pid === process.pid) await rm(file, { force: true });
    },
  };
}

function isTakeable(holder: Holder, host: string, nowMs: number, staleMs: number): boolean {
  if (holder.host === host) return holder.pid === process.pid || !isRunning(holder.pid);
  return nowMs - holder.at > staleMs;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return isCode(error, 'EPERM');
  }
}

async function readHolder(file: string): Promise<Holder | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'host' in parsed &&
      'pid' in parsed &&
      'at' in parsed &&
      typeof parsed.host === 'string' &&
      typeof parsed.pid === 'number' &&
      typeof parsed.at === 'number'
    ) {
      return { host: parsed.host, pid: parsed.pid, at: parsed.at };
    }
  } catch {
    // a torn lock file (a crash while writing it): nobody can be said to hold it
  }
  return undefined;
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
