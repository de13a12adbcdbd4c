import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInProcessBus, kickstandTopics } from '../bus';
import { systemClock, type Clock } from '../clock';
import type { PlatformDeps } from '../lifecycle';
import { createSilentLogger } from '../log';
import { createEmbeddedStore } from '../store';

export interface TestPlatform extends PlatformDeps {
  /** Stops the bus, closes the store and deletes its files. */
  close(): Promise<void>;
}

/**
 * The real embedded adapters for a door test: an in-process bus and an embedded store in a fresh
 * temporary folder, a silent logger, and the given clock.
 */
export async function createTestPlatform(service: string, options: { clock?: Clock } = {}): Promise<TestPlatform> {
  const dir = await mkdtemp(path.join(tmpdir(), `kickstand-${service}-`));
  const clock = options.clock ?? systemClock;
  const log = createSilentLogger();
  const bus = createInProcessBus({
    topics: kickstandTopics,
    log,
    retry: { maxAttempts: 3, initialBackoffMs: 5, maxBackoffMs: 20 },
  });
  const store = await createEmbeddedStore({ dir, clock, log });
  return {
    service,
    log,
    bus,
    store,
    clock,
    close: async () => {
      await bus.stop();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
