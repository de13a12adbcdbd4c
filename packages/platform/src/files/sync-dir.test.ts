import path from 'node:path';
import { createTempDirs } from '../testing/temp-dirs';
import { syncDir } from './sync-dir';

const dirs = createTempDirs('sync-dir');
afterAll(() => dirs.removeAll());

describe('syncDir', () => {
  test('when the folder exists, then it is synced; when it does not, then the error says so', async () => {
    const dir = await dirs.make();
    await expect(syncDir(dir)).resolves.toBeUndefined();
    await expect(syncDir(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
