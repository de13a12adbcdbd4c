import { mkdir, open, readdir, rename, rm, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { syncDir } from '../files';

/** A file open for appending. */
export interface AppendFile {
  append(bytes: Uint8Array): Promise<void>;
  /** Returns once what was appended is on the disk (fsync). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The few file operations the spool needs, as a port: the spool's tests put a disk that fails on
 * demand (or counts its fsyncs) in place of the real one.
 */
export interface SpoolDisk {
  ensureDir(dir: string): Promise<void>;
  /** File names (not paths) in the directory. */
  list(dir: string): Promise<string[]>;
  /** Up to `length` bytes from `offset` (fewer at the end of the file). */
  read(file: string, offset: number, length: number): Promise<Uint8Array>;
  size(file: string): Promise<number>;
  openAppend(file: string): Promise<AppendFile>;
  /** Makes a file created in the directory durable (fsync of the directory). */
  syncDir(dir: string): Promise<void>;
  truncate(file: string, size: number): Promise<void>;
  remove(file: string): Promise<void>;
  /** Replaces the file's content in one step (written aside, then renamed over it). */
  replace(file: string, content: string): Promise<void>;
}

export const nodeSpoolDisk: SpoolDisk = {
  async ensureDir(dir) {
    await mkdir(dir, { recursive: true });
  },
  list: (dir) => readdir(dir),
  async read(file, offset, length) {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  },
  async size(file) {
    const handle = await open(file, 'r');
    try {
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  },
  async openAppend(file) {
    const handle: FileHandle = await open(file, 'a');
    return {
      append: async (bytes) => {
        await handle.write(bytes);
      },
      sync: () => handle.sync(),
      close: () => handle.close(),
    };
  },
  syncDir,
  truncate: (file, size) => truncate(file, size),
  remove: (file) => rm(file, { force: true }),
  async replace(file, content) {
    const aside = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
    await writeFile(aside, content);
    await rename(aside, file);
  },
};
