import { systemClock, type Clock } from '../clock';
import { createSilentLogger } from '../log';
import { createEmbeddedStore, type Store } from '../store';
import { createTempDirs } from './temp-dirs';

export interface TestStore {
  store: Store;
  /** The temporary folder the store keeps its files in. */
  dir: string;
  /** Closes the store and deletes its folder. */
  close(): Promise<void>;
}

/** The real embedded store in a fresh temporary folder, logging nothing; `name` labels the folder. */
export async function createTestStore(name: string, options: { clock?: Clock } = {}): Promise<TestStore> {
  const dirs = createTempDirs(name);
  const dir = await dirs.make();
  const store = await createEmbeddedStore({ dir, clock: options.clock ?? systemClock, log: createSilentLogger() });
  return {
    store,
    dir,
    close: async () => {
      await store.close();
      await dirs.removeAll();
    },
  };
}
