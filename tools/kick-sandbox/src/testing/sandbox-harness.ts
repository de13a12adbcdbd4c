import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock, type Clock } from '@kickstand/platform/clock';
import { closeServer, listen } from '@kickstand/platform/http';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import { createSilentLogger } from '@kickstand/platform/log';
import { createEmbeddedStore, type Store } from '@kickstand/platform/store';
import type { KickSandboxOptions } from '../options';
import type { RealKickSettings, RealKickSettingsPatch } from '../real-kick';
import { createKickSandbox } from '../service';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

export const testClient = {
  clientId: 'kickstand-test',
  clientSecret: 'kickstand-test-secret',
  redirectUri: 'http://localhost:3000/api/kick/oauth/callback',
};

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface SandboxHarness {
  url: string;
  /**
   * The same sandbox (same store, state and switches) served by its Express app alone: what every
   * route answered before the lean POST /public/v1/chat (api/lean-chat.ts), to compare the two.
   */
  expressUrl: string;
  receiver: WebhookReceiver;
  store: Store;
  /** Any request to the sandbox; `body` objects are sent as JSON unless `form` is set. */
  request(
    method: string,
    pathAndQuery: string,
    options?: { body?: unknown; form?: Record<string, string>; token?: string; headers?: Record<string, string> },
  ): Promise<HttpAnswer>;
  /** The control API: `{ success: true, data }` is unwrapped, anything else throws with the answer. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** The full PKCE flow with auto-approval; returns the token response. */
  linkUser(username: string, scopes?: string[]): Promise<TokenResponse>;
  appToken(): Promise<string>;
  /** Real Kick's switches (`PATCH /sandbox/api/real-kick`), e.g. `{ botChat: 'server-error', chatRateLimitNext: 2 }`. */
  realKick(changes: RealKickSettingsPatch): Promise<RealKickSettings>;
  /** The usual real-Kick set (`POST /sandbox/api/real-kick/preset`). */
  realKickPreset(): Promise<RealKickSettings>;
  /** Back to kick-api.md to the letter (`DELETE /sandbox/api/real-kick`). */
  documentedKick(): Promise<RealKickSettings>;
  /** Deletes subscriptions without notice (`POST /sandbox/api/subscriptions/drop`); returns how many. */
  dropSubscriptions(filter?: { broadcasterUserId?: number; event?: string }): Promise<number>;
  /** Stops the sandbox; the store stays (for restart tests) until `close`. */
  stop(): Promise<void>;
  /** Stops, then starts a new sandbox on the same data directory (store reopened), as after `npm start` again. */
  restart(): Promise<SandboxHarness>;
  close(): Promise<void>;
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  refresh_expires_in?: number;
}

export const allProductScopes = [
  'user:read',
  'channel:read',
  'channel:write',
  'chat:write',
  'events:subscribe',
  'moderation:ban',
  'moderation:chat_message:manage',
];

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeQuery(overrides: Record<string, string | undefined> = {}, challenge = pkcePair().challenge) {
  const params: Record<string, string | undefined> = {
    client_id: testClient.clientId,
    response_type: 'code',
    redirect_uri: testClient.redirectUri,
    scope: allProductScopes.join(' '),
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.append(name, value);
  return search.toString();
}

interface HarnessOptions {
  clock?: Clock;
  options?: Partial<Omit<KickSandboxOptions, 'app'>> & { app?: Partial<KickSandboxOptions['app']> };
}

/**
 * Starts the sandbox on port 0 with an embedded store in a temporary folder (what
 * createTestPlatform would give, but with a known folder so a restart can reopen it), and a
 * webhook receiver standing in for the product.
 */
export async function startSandboxForTest(given: HarnessOptions = {}): Promise<SandboxHarness> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kick-sandbox-'));
  const clock = given.clock ?? systemClock;
  const store = await createEmbeddedStore({ dir, clock, log: createSilentLogger() });
  const receiver = await startWebhookReceiver();
  return startOn({ dir, store, receiver, clock, given });
}

async function startOn(context: {
  dir: string;
  store: Store;
  receiver: WebhookReceiver;
  clock: Clock;
  given: HarnessOptions;
}): Promise<SandboxHarness> {
  const { dir, store, receiver, clock, given } = context;
  let running: RunningService | undefined;
  let expressOnly: Server | undefined;
  const options: KickSandboxOptions = {
    publicUrl: 'http://localhost:3100',
    subscriptionLimit: 1000,
    delivery: { retryDelayMs: 20, outOfOrderHoldMs: 300, timeoutMs: 2000 },
    ...given.options,
    app: {
      clientId: testClient.clientId,
      clientSecret: testClient.clientSecret,
      name: 'Kickstand (test)',
      redirectUris: [testClient.redirectUri],
      webhookUrl: receiver.url,
      ...given.options?.app,
    },
  };
  const service = createKickSandbox({ log: createSilentLogger(), store, clock }, options);
  running = await startHttpService(service, { port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${running.port}`;
  expressOnly = createServer(service.app);
  // as startHttpService sets it: Keep-Alive: timeout=65 in every answer
  expressOnly.keepAliveTimeout = 65_000;
  const expressUrl = `http://127.0.0.1:${await listen(expressOnly, 0, '127.0.0.1')}`;

  const request: SandboxHarness['request'] = async (method, pathAndQuery, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers };
    let body: string | undefined;
    if (requestOptions.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(requestOptions.form).toString();
    } else if (requestOptions.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body);
    }
    if (requestOptions.token) headers.authorization = `Bearer ${requestOptions.token}`;
    const response = await fetch(`${url}${pathAndQuery}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };

  const harness: SandboxHarness = {
    url,
    expressUrl,
    receiver,
    store,
    request,
    async control<T>(method: string, controlPath: string, body?: unknown): Promise<T> {
      const answer = await request(method, `/sandbox/api${controlPath}`, body === undefined ? {} : { body });
      const json = answer.json as { success?: boolean; data?: T } | undefined;
      if (answer.status >= 300 || json?.success !== true) {
        throw new Error(`control ${method} ${controlPath} → ${answer.status} ${answer.text}`);
      }
      return json.data as T;
    },
    async linkUser(username, scopes = allProductScopes) {
      const { verifier, challenge } = pkcePair();
      const query = authorizeQuery({ scope: scopes.join(' '), sandbox_auto_approve: username }, challenge);
      const authorized = await request('GET', `/oauth/authorize?${query}`);
      const location = new URL(authorized.headers.get('location') ?? '');
      const code = location.searchParams.get('code');
      if (!code) throw new Error(`no code in ${location.toString()}`);
      const token = await request('POST', '/oauth/token', {
        form: {
          grant_type: 'authorization_code',
          client_id: testClient.clientId,
          client_secret: testClient.clientSecret,
          code,
          redirect_uri: testClient.redirectUri,
          code_verifier: verifier,
        },
      });
      if (token.status !== 200) throw new Error(`token exchange failed: ${token.status} ${token.text}`);
      return token.json as TokenResponse;
    },
    async appToken() {
      const token = await request('POST', '/oauth/token', {
        form: {
          grant_type: 'client_credentials',
          client_id: testClient.clientId,
          client_secret: testClient.clientSecret,
        },
      });
      return (token.json as { access_token: string }).access_token;
    },
    realKick: (changes) => harness.control<RealKickSettings>('PATCH', '/real-kick', changes),
    realKickPreset: () => harness.control<RealKickSettings>('POST', '/real-kick/preset'),
    documentedKick: () => harness.control<RealKickSettings>('DELETE', '/real-kick'),
    async dropSubscriptions(filter = {}) {
      return (await harness.control<{ count: number }>('POST', '/subscriptions/drop', filter)).count;
    },
    async stop() {
      if (expressOnly) await closeServer(expressOnly);
      expressOnly = undefined;
      await running?.stop();
      running = undefined;
    },
    async restart() {
      await harness.stop();
      // reopened from its files, as a new process would
      await store.close();
      const reopened = await createEmbeddedStore({ dir, clock, log: createSilentLogger() });
      return startOn({ ...context, store: reopened });
    },
    async close() {
      await harness.stop();
      await receiver.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
