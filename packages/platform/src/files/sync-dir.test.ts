import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { syncDir } from './sync-dir';

describe('syncDir', () => {
  test('when the folder exists, then it is synced; when it does not, then the error says so', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-sync-dir-'));
    try {
      await expect(syncDir(dir)).resolves.toBeUndefined();
      await expect(syncDir(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
