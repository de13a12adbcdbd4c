// Helpers for auth's door tests: the real service on port 0 over the embedded adapters.
import { randomUUID } from 'node:crypto';
import { kickstandTopics, type KickstandBus, type KickstandTopics } from '@kickstand/platform/bus';
import type { Role } from '@kickstand/platform/auth';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import type { Logger } from '@kickstand/platform/log';
import type { Store } from '@kickstand/platform/store';
import {
  createFakeClock,
  createTestPlatform,
  recordPublished,
  sendRequest,
  testKeyPair,
  type FakeClock,
  type RecordedBus,
  type SendOptions,
  type TestPlatform,
} from '@kickstand/platform/testing';
import { createAuthRepository, type AuthRepository, type KickAccountDoc, type UserDoc } from '../repository';
import { defaultLoginThrottle } from '../login-throttle';
import { inProcessRedeliveryWindowSeconds } from '@kickstand/platform/config';
import { createAuthService, type AuthServiceOptions } from '../service';
import { newUserDoc, pendingChange } from '../users';
import type { UserView } from '../user-view';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when there is none). */
  body: ApiBody;
  text: string;
}

/** Loosely typed on purpose: tests assert the exact shapes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiBody = any;

export type RequestOptions = SendOptions;

export interface TestAuth {
  url: string;
  platform: TestPlatform;
  clock: FakeClock;
  /** What auth published. */
  recorded: RecordedBus<KickstandTopics>;
  /** The bus to publish other services' events on. */
  bus: KickstandBus;
  repo: AuthRepository;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Registers through the door; returns the answer's user and token and what was sent. */
  register(overrides?: Partial<NewAccount>): Promise<{ user: UserView; token: string } & NewAccount>;
  /** A user written straight to the store (no argon2, no events): fast seeding. */
  seedUser(overrides?: SeedUser): Promise<UserDoc>;
  /** A token the service trusts for this user. */
  tokenFor(user: Pick<UserDoc, '_id' | 'username' | 'role'>): string;
  /** A seeded active super administrator and a token for them. */
  seedAdmin(): Promise<{ admin: UserDoc; token: string }>;
  /** Stops the service and starts a new one over the same store and bus (a process restart), maybe with other options. */
  restart(overrides?: Partial<AuthServiceOptions>): Promise<void>;
  close(): Promise<void>;
}

export interface NewAccount {
  email: string;
  username: string;
  password: string;
}

export interface SeedUser {
  username?: string;
  email?: string;
  role?: Role;
  isActive?: boolean;
  createdAt?: Date;
  lastLogin?: Date | null;
  kickAccount?: KickAccountDoc | null;
  botEnabled?: boolean;
  commandCount?: number;
}

export const validPassword = 'Str0ng!Passw0rd';

let sequence = 0;
/** A unique suffix for names within a test run. */
export const unique = (): string =>
  `${process.pid.toString(36)}${(sequence++).toString(36)}${randomUUID().slice(0, 4)}`;

export const newAccount = (overrides: Partial<NewAccount> = {}): NewAccount => {
  const id = unique();
  return { email: `user_${id}@example.com`, username: `user_${id}`, password: validPassword, ...overrides };
};

/** A throttle no door test reaches unless it means to. */
export const generousLoginThrottle = {
  ...defaultLoginThrottle,
  freeFailures: 10_000,
  addressFailures: 10_000,
};

export interface TestAuthOptions extends Partial<AuthServiceOptions> {
  log?: Logger;
  clock?: FakeClock;
  /** Wraps the bus auth publishes through (to make publishing fail, say). */
  wrapBus?: (bus: KickstandBus) => KickstandBus;
  /** Another store instead of the test platform's (one the admin:create command wrote, say). */
  store?: Store;
  /** Express's `trust proxy` (which hops may set X-Forwarded-For); the platform default otherwise. */
  trustProxy?: string;
}

export async function startAuthForTest(options: TestAuthOptions = {}): Promise<TestAuth> {
  const { log, clock: givenClock, wrapBus, store, trustProxy, ...serviceOptions } = options;
  const clock = givenClock ?? createFakeClock(new Date('2026-03-01T12:00:00Z'));
  const platform = await createTestPlatform('auth', { clock });
  const recorded = recordPublished(platform.bus, kickstandTopics);
  const deps = {
    ...platform,
    bus: wrapBus ? wrapBus(recorded.bus) : recorded.bus,
    log: log ?? platform.log,
    store: store ?? platform.store,
    http: trustProxy === undefined ? platform.http : { ...platform.http, trustProxy },
  };
  const startService = (port: number, overrides: Partial<AuthServiceOptions> = {}) =>
    startHttpService(
      createAuthService(deps, {
        jwtPrivateKey: testKeyPair().privateKeyPem,
        tokenTtlSeconds: 24 * 3600,
        redeliveryWindowSeconds: inProcessRedeliveryWindowSeconds,
        loginThrottle: generousLoginThrottle,
        ...serviceOptions,
        ...overrides,
      }),
      { port, host: '127.0.0.1' },
    );
  let running: RunningService;
  try {
    running = await startService(0);
  } catch (error) {
    await platform.close();
    throw error;
  }
  const url = `http://127.0.0.1:${running.port}`;
  const repo = createAuthRepository(deps.store);

  async function request(method: string, path: string, requestOptions: RequestOptions = {}): Promise<ApiResponse> {
    const { status, headers, text, json } = await sendRequest<ApiBody>(`${url}${path}`, method, requestOptions);
    return { status, headers, body: json, text };
  }

  const tokenFor: TestAuth['tokenFor'] = (user) =>
    platform.signToken({ userId: user._id, username: user.username, role: user.role });

  async function seedUser(overrides: SeedUser = {}): Promise<UserDoc> {
    const id = unique();
    const role = overrides.role ?? 'USER';
    const username = overrides.username ?? `seed_${id}`;
    const doc = newUserDoc({
      id: randomUUID(),
      email: overrides.email ?? `seed_${id}@example.com`,
      username,
      passwordHash: 'not-a-hash',
      role,
      now: overrides.createdAt ?? clock.now(),
      change: pendingChange('CREATED', { username, role, isActive: true }, clock.now(), randomUUID()),
    });
    return repo.users.insert({
      ...doc,
      outbox: [],
      isActive: overrides.isActive ?? true,
      lastLogin: overrides.lastLogin ?? null,
      kickAccount: overrides.kickAccount ?? null,
      botEnabled: overrides.botEnabled ?? true,
      commandCount: overrides.commandCount ?? 0,
    });
  }

  return {
    url,
    platform,
    clock,
    recorded,
    bus: platform.bus,
    repo,
    request,
    async register(overrides = {}) {
      const account = newAccount(overrides);
      const response = await request('POST', '/api/platform/register', { body: account });
      if (response.status !== 201) throw new Error(`register answered ${response.status}: ${response.text}`);
      return { ...account, user: response.body.data.user, token: response.body.data.token };
    },
    seedUser,
    tokenFor,
    async seedAdmin() {
      const admin = await seedUser({ role: 'SUPER_ADMIN' });
      return { admin, token: tokenFor(admin) };
    },
    restart: async (overrides) => {
      const { port } = running;
      await running.stop();
      running = await startService(port, overrides);
    },
    close: async () => {
      await running.stop();
      await platform.close();
    },
  };
}

// The platform harness's helpers, under the names auth's tests import them by.
export { captureLog, eventually } from '@kickstand/platform/testing';

/** Lets the bus deliver what is in flight (to check that nothing changes). */
export const settle = (ms = 100): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
