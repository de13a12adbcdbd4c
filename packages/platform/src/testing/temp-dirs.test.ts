import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTempDirs } from './temp-dirs';

describe('createTempDirs', () => {
  test('when folders are made, then each is new and empty, and removeAll deletes them all', async () => {
    // Arrange
    const dirs = createTempDirs('temp-dirs');
    // Act
    const first = await dirs.make();
    await writeFile(path.join(first, 'data.log'), 'some lines\n');
    const second = await dirs.make();
    const labelled = await dirs.make('spool');
    // Assert
    expect(new Set([first, second, labelled]).size).toBe(3);
    expect(await readdir(second)).toEqual([]);
    expect(await readdir(labelled)).toEqual([]);
    expect(path.dirname(first)).toBe(tmpdir());
    expect(path.basename(first)).toMatch(/^kickstand-temp-dirs-[A-Za-z0-9]{6}$/);
    expect(path.basename(labelled)).toMatch(/^kickstand-temp-dirs-spool-[A-Za-z0-9]{6}$/);
    await dirs.removeAll();
    expect([first, second, labelled].filter((dir) => existsSync(dir))).toEqual([]);
  });

  test('when removeAll runs after each test, then the folders made since the last one are removed too', async () => {
    // Arrange
    const dirs = createTempDirs('temp-dirs');
    await dirs.make();
    await dirs.removeAll();
    // Act
    const later = await dirs.make();
    await dirs.removeAll();
    // Assert
    expect(existsSync(later)).toBe(false);
  });
});
