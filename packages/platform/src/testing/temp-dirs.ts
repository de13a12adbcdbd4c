import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Temporary folders for one test file: made on demand, all removed by removeAll(). */
export interface TempDirs {
  /** A new, empty folder under the system's temporary folder: `kickstand-<name>[-<label>]-XXXXXX`. */
  make(label?: string): Promise<string>;
  /** Deletes every folder made so far, contents and all; folders made afterwards form a new set. */
  removeAll(): Promise<void>;
}

/**
 * Temporary folders labelled `name` in their names, so a folder left behind by a crashed run says
 * which test made it. Testing modules do not call jest's globals, so each test file removes them
 * itself: `afterAll(() => dirs.removeAll())`, or `afterEach` for a folder per test.
 */
export function createTempDirs(name: string): TempDirs {
  const made: string[] = [];
  return {
    async make(label) {
      const prefix = label === undefined ? `kickstand-${name}-` : `kickstand-${name}-${label}-`;
      const dir = await mkdtemp(path.join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    async removeAll() {
      // forgotten before they go, so a removeAll in afterEach only removes that test's folders
      await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}
