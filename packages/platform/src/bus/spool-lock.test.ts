import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTempDirs } from '../testing/temp-dirs';
import { lockSpoolDir, spoolLockFileName } from './spool-lock';

describe('spool lock', () => {
  const dirs = createTempDirs('spool-lock');
  let dir: string;
  const host = 'kick-link-0';
  const nowMs = 1_000_000;
  const now = () => nowMs;

  beforeEach(async () => {
    dir = await dirs.make();
  });

  afterEach(() => dirs.removeAll());

  const holdBy = (holder: { host: string; pid: number; at: number }) =>
    writeFile(path.join(dir, spoolLockFileName), JSON.stringify(holder));
  const holder = async () => JSON.parse(await readFile(path.join(dir, spoolLockFileName), 'utf8')) as unknown;

  test('when nobody holds the directory, then it is taken, and released again', async () => {
    // Act
    const lock = await lockSpoolDir(dir, { host, now });
    const held = await holder();
    await lock.release();
    // Assert
    expect(held).toEqual({ host, pid: process.pid, at: nowMs });
    await expect(readFile(path.join(dir, spoolLockFileName))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('when a running process of this host holds it, then it is refused, naming the holder', async () => {
    // Arrange: the parent process (jest's) runs
    await holdBy({ host, pid: process.ppid, at: nowMs });
    // Act
    const taking = lockSpoolDir(dir, { host, now });
    // Assert
    await expect(taking).rejects.toThrow(
      `The spool ${dir} is in use by process ${process.ppid} on ${host}: each instance needs its own spool directory (SPOOL_DIR)`,
    );
  });

  test('when the holder was this pid on this host (a restarted container), then it is taken over', async () => {
    // Arrange
    await holdBy({ host, pid: process.pid, at: nowMs - 1 });
    // Act
    const lock = await lockSpoolDir(dir, { host, now });
    // Assert
    expect(await holder()).toEqual({ host, pid: process.pid, at: nowMs });
    await lock.release();
  });

  test('when the holder was a process of this host that no longer runs, then it is taken over', async () => {
    // Arrange: above Linux's largest pid
    await holdBy({ host, pid: 4_194_305, at: nowMs });
    // Act
    const lock = await lockSpoolDir(dir, { host, now });
    // Assert
    expect(await holder()).toEqual({ host, pid: process.pid, at: nowMs });
    await lock.release();
  });

  test('when another host holds it, then it is refused while its heartbeat is fresh, and taken once it is stale', async () => {
    // Arrange
    await holdBy({ host: 'kick-link-1', pid: 1, at: nowMs - 20_000 });
    // Act
    const fresh = lockSpoolDir(dir, { host, now, staleMs: 20_000 });
    await expect(fresh).rejects.toThrow(`in use by process 1 on kick-link-1`);
    const stale = await lockSpoolDir(dir, { host, now: () => nowMs + 1, staleMs: 20_000 });
    // Assert
    expect(await holder()).toEqual({ host, pid: process.pid, at: nowMs + 1 });
    await stale.release();
  });
});
