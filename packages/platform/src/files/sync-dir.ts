import { open } from 'node:fs/promises';

/**
 * Makes the names last written in `dir` durable (fsync of the folder): a file created, renamed
 * into it or deleted is otherwise only in the page cache's copy of the folder until the kernel
 * writes it back, and a power cut can undo it though the file's own bytes were synced.
 */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
