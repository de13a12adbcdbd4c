import {
  createEditorActionRecorder,
  createTeamAccess,
  createTokenSigner,
  createTokenVerifier,
  createUserAccess,
  generateJwtKeyPair,
  subscribeTeamAccess,
  subscribeUserAccess,
  type Identity,
} from '../auth';
import { createInProcessBus, kickstandTopics } from '../bus';
import { systemClock, type Clock } from '../clock';
import type { PlatformDeps } from '../lifecycle';
import { defaultHttpSettings } from '../http';
import { createSilentLogger } from '../log';
import { createTestStore } from './test-store';

export interface TestPlatform extends PlatformDeps {
  /** A token for this identity, signed with the key that `tokens` trusts. */
  signToken(identity: Identity, tokenVersion?: number): string;
  /** The test key pair's public key, for a second service in the same test. */
  jwtPublicKey: string;
  /** Stops the bus, closes the store and deletes its files. */
  close(): Promise<void>;
}

/**
 * The real embedded adapters for a door test: an in-process bus and an embedded store in a fresh
 * temporary folder, a silent logger, and the given clock. `tokens` consults the user-access read
 * model fed by user.changed on this bus, as connectPlatform wires it.
 */
export async function createTestPlatform(service: string, options: { clock?: Clock } = {}): Promise<TestPlatform> {
  const clock = options.clock ?? systemClock;
  const log = createSilentLogger();
  const bus = createInProcessBus({
    topics: kickstandTopics,
    log,
    retry: { maxAttempts: 3, initialBackoffMs: 5, maxBackoffMs: 20 },
  });
  const testStore = await createTestStore(service, { clock });
  const store = testStore.store;
  const keys = testKeyPair();
  const signer = createTokenSigner(keys.privateKeyPem, { expiresInSeconds: 3600, clock });
  const access = createUserAccess(store);
  const userChanges = await subscribeUserAccess(bus, service, 'test', access);
  const team = createTeamAccess();
  const teamChanges = await subscribeTeamAccess(bus, service, 'test', team);
  return {
    service,
    log,
    bus,
    store,
    clock,
    tokens: createTokenVerifier(keys.publicKeyPem, clock, access, {
      team,
      isShutOut: access.isShutOut,
      recordEditorAction: createEditorActionRecorder({ bus, clock, log, service }),
    }),
    http: defaultHttpSettings,
    signToken: (identity, tokenVersion) => signer.sign(identity, tokenVersion),
    jwtPublicKey: keys.publicKeyPem,
    close: async () => {
      await teamChanges.stop();
      await userChanges.stop();
      await bus.stop();
      await testStore.close();
    },
  };
}

// RSA key generation takes tens of milliseconds: one pair serves every test platform of a run.
let sharedKeyPair: ReturnType<typeof generateJwtKeyPair> | undefined;
export function testKeyPair(): ReturnType<typeof generateJwtKeyPair> {
  sharedKeyPair ??= generateJwtKeyPair();
  return sharedKeyPair;
}
