import { createServer, type IncomingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createKickSandbox, type KickSandboxOptions } from '@kickstand/kick-sandbox';
import type { Identity } from '@kickstand/platform/auth';
import { kickstandTopics, type KickstandTopics } from '@kickstand/platform/bus';
import { startHttpService, type RunningService } from '@kickstand/platform/lifecycle';
import type { Store } from '@kickstand/platform/store';
import {
  cookieHeaderFrom,
  createFakeClock,
  createTestPlatform,
  createTestStore,
  listenLocally,
  recordPublished,
  sendRequest,
  type Answer,
  type SendOptions,
  type FakeClock,
  type RecordedBus,
  type TestPlatform,
} from '@kickstand/platform/testing';
import type { KickLinkOptions } from '../options';
import { createKickLinkService } from '../service';

/** The app registered with the sandbox, as single-machine mode registers it. */
export const testApp = {
  clientId: 'kickstand-local',
  clientSecret: 'kickstand-local-secret',
  // what the gateway's callback would be; the tests forward the browser's redirect to kick-link itself
  redirectUri: 'http://localhost:3000/api/kick/oauth/callback',
};

export type { Answer } from '@kickstand/platform/testing';

export interface ForwardedDelivery {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** What kick-link answered. */
  status: number;
}

export interface LinkResult {
  /** kick-link's answer to the callback: a 302. */
  status: number;
  /** Where kick-link sends the browser. */
  location: string;
  /** The callback's query string as Kick sent it (for replays). */
  callbackQuery: string;
  /** The Set-Cookie headers of the callback's answer. */
  setCookies: string[];
}

export interface Stack {
  clock: FakeClock;
  platform: TestPlatform;
  recorded: RecordedBus<KickstandTopics>;
  kickLinkUrl: string;
  sandboxUrl: string;
  /** Every delivery the sandbox made, as forwarded to kick-link. */
  forwarded: ForwardedDelivery[];
  /** The store kick-link runs on. */
  store: Store;
  tokenFor(userId: string, role?: Identity['role'], username?: string): string;
  /** A request to kick-link. */
  api<T = unknown>(method: string, pathAndQuery: string, options?: SendOptions): Promise<Answer<T>>;
  /** A request to the sandbox. */
  kickRequest<T = unknown>(method: string, pathAndQuery: string, options?: SendOptions): Promise<Answer<T>>;
  /** The sandbox control API, unwrapped; throws on failure. */
  control<T = unknown>(method: string, controlPath: string, body?: unknown): Promise<T>;
  /** The whole link flow with auto-approval as `kickUsername` (created when new). */
  link(userId: string, kickUsername: string, authorizeExtras?: Record<string, string>): Promise<LinkResult>;
  /**
   * A link started at `startPath` (the streamer's or the bot account's) and taken through Kick's
   * authorize page: the callback query Kick would send the browser to, and the Cookie header of
   * the browser that started it (also kept for `callback`).
   */
  startLink(
    startPath: string,
    token: string,
    authorizeExtras: Record<string, string>,
  ): Promise<{ query: string; cookie: string }>;
  /** The streamer's authorize step only (`startLink`): the callback query Kick would send the browser to. */
  authorize(userId: string, authorizeExtras: Record<string, string>): Promise<string>;
  /**
   * Calls kick-link's callback with a query as Kick would send the browser. `cookie`: the Cookie
   * header; by default the one the browser that started this query's state holds (see
   * `authorize`), `null` for none.
   */
  callback(query: string, cookie?: string | null): Promise<LinkResult>;
  /** Subscribes events straight at the sandbox with an app token (not through kick-link). */
  subscribeAtKick(broadcasterUserId: number, events: string[]): Promise<void>;
  /** The sandbox's view of a channel's subscriptions. */
  subscriptionsAtKick(broadcasterUserId: number): Promise<{ id: string; event: string }[]>;
  /** The Kick user id of a sandbox username. */
  kickUserId(username: string): Promise<number>;
  close(): Promise<void>;
}

/** The state parameter of an authorize URL or of a callback query. */
function stateOf(urlOrQuery: string): string {
  const query = urlOrQuery.includes('?') ? urlOrQuery.slice(urlOrQuery.indexOf('?')) : urlOrQuery;
  return new URLSearchParams(query).get('state') ?? '';
}

/** A fresh sandbox username, 3–25 letters, digits or underscores. */
export function aKickName(prefix = 'streamer'): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`.slice(0, 25);
}

/**
 * The real Kick sandbox (its own embedded store) and kick-link (createTestPlatform), sharing one
 * fake clock that only the test moves, so webhook timestamps, token expiry and TTLs agree. The
 * sandbox's webhook URL is a small forwarder that records each delivery and passes it on to
 * kick-link's /api/kick/webhook, answering with kick-link's status.
 */
export async function startStack(
  given: { options?: Partial<KickLinkOptions>; sandbox?: Partial<Omit<KickSandboxOptions, 'app'>> } = {},
): Promise<Stack> {
  const clock = createFakeClock(new Date());
  const platform = await createTestPlatform('kick-link', { clock });
  const sandboxStore = await createTestStore('kick-link-sandbox', { clock });

  let kickLinkUrl = '';
  const forwarded: ForwardedDelivery[] = [];
  const forwarder = await listenLocally(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string' && (name.startsWith('kick-event-') || name === 'content-type')) {
            headers[name] = value;
          }
        }
        fetch(`${kickLinkUrl}/api/kick/webhook`, { method: 'POST', headers, body: rawBody })
          .then(async (answer) => {
            await answer.arrayBuffer();
            forwarded.push({ headers: req.headers, rawBody, status: answer.status });
            res.statusCode = answer.status;
            res.end();
          })
          .catch(() => {
            forwarded.push({ headers: req.headers, rawBody, status: 599 });
            res.statusCode = 502;
            res.end();
          });
      });
    }),
  );
  const forwarderUrl = `${forwarder.url}/api/kick/webhook`;

  const sandbox: RunningService = await startHttpService(
    createKickSandbox(
      { log: platform.log, store: sandboxStore.store, clock },
      {
        publicUrl: 'http://localhost:3100',
        delivery: { retryDelayMs: 20, outOfOrderHoldMs: 200, timeoutMs: 5000 },
        ...given.sandbox,
        app: {
          clientId: testApp.clientId,
          clientSecret: testApp.clientSecret,
          name: 'Kickstand (test)',
          redirectUris: [testApp.redirectUri],
          webhookUrl: forwarderUrl,
        },
      },
    ),
    { port: 0, host: '127.0.0.1' },
  );
  const sandboxUrl = `http://127.0.0.1:${sandbox.port}`;

  // The sandbox's own key stands in for the one Kick publishes, as the fallback of a failed fetch
  // (the sandbox used to want a token on /public-key, which kick-link no longer sends).
  const signingKey = (await (await fetch(`${sandboxUrl}/sandbox/api/signing-key`)).json()) as {
    data: { publicKey: string };
  };
  const recorded = recordPublished(platform.bus, kickstandTopics);
  const kickLink = await startHttpService(
    createKickLinkService(
      { ...platform, bus: recorded.bus },
      {
        kick: {
          clientId: testApp.clientId,
          clientSecret: testApp.clientSecret,
          redirectUri: testApp.redirectUri,
          oauthUrl: sandboxUrl,
          apiUrl: `${sandboxUrl}/public/v1`,
        },
        tokenEncryptionKey: randomBytes(32),
        http: { timeoutMs: 3000, initialBackoffMs: 20, maxBackoffMs: 100 },
        publicKeyRefetchIntervalMs: 0,
        publicKeyFallbackPem: signingKey.data.publicKey,
        ...given.options,
      },
    ),
    { port: 0, host: '127.0.0.1' },
  );
  kickLinkUrl = `http://127.0.0.1:${kickLink.port}`;

  const request = <T>(base: string, method: string, pathAndQuery: string, options?: SendOptions) =>
    sendRequest<T>(`${base}${pathAndQuery}`, method, options);

  // the cookie each started state's browser holds: the callback brings it back by default
  const browserCookies = new Map<string, string>();

  const stack: Stack = {
    clock,
    platform,
    recorded,
    kickLinkUrl,
    sandboxUrl,
    forwarded,
    store: platform.store,
    tokenFor: (userId, role = 'USER', username = `name-${userId}`) => platform.signToken({ userId, username, role }),
    api: (method, pathAndQuery, options) => request(kickLinkUrl, method, pathAndQuery, options),
    kickRequest: (method, pathAndQuery, options) => request(sandboxUrl, method, pathAndQuery, options),
    async control<T>(method: string, controlPath: string, body?: unknown): Promise<T> {
      const answer = await request<{ success?: boolean; data?: T }>(
        sandboxUrl,
        method,
        `/sandbox/api${controlPath}`,
        body === undefined ? {} : { body },
      );
      if (answer.status >= 300 || answer.json?.success !== true) {
        throw new Error(`sandbox control ${method} ${controlPath} → ${answer.status} ${answer.text}`);
      }
      return answer.json.data as T;
    },
    async startLink(startPath, token, authorizeExtras) {
      const started = await stack.api<{ data: { authUrl: string } }>('POST', startPath, { token });
      if (started.status !== 200) throw new Error(`link start failed: ${started.status} ${started.text}`);
      const cookie = cookieHeaderFrom(started);
      browserCookies.set(stateOf(started.json.data.authUrl), cookie);
      const authUrl = new URL(started.json.data.authUrl);
      for (const [name, value] of Object.entries(authorizeExtras)) authUrl.searchParams.append(name, value);
      const authorized = await fetch(authUrl, { redirect: 'manual' });
      const location = authorized.headers.get('location');
      if (authorized.status !== 302 || !location) {
        throw new Error(`authorize did not redirect: ${authorized.status} ${await authorized.text()}`);
      }
      return { query: new URL(location).search, cookie };
    },
    async authorize(userId, authorizeExtras) {
      return (await stack.startLink('/api/platform/kick/link', stack.tokenFor(userId), authorizeExtras)).query;
    },
    async callback(query, cookie = browserCookies.get(stateOf(query))) {
      const answer = await fetch(`${kickLinkUrl}/api/kick/oauth/callback${query}`, {
        redirect: 'manual',
        headers: cookie ? { cookie } : {},
      });
      await answer.arrayBuffer();
      return {
        status: answer.status,
        location: answer.headers.get('location') ?? '',
        callbackQuery: query,
        setCookies: answer.headers.getSetCookie(),
      };
    },
    async link(userId, kickUsername, authorizeExtras = {}) {
      const query = await stack.authorize(userId, { sandbox_auto_approve: kickUsername, ...authorizeExtras });
      return stack.callback(query);
    },
    async subscribeAtKick(broadcasterUserId, events) {
      const token = await request<{ access_token: string }>(sandboxUrl, 'POST', '/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: testApp.clientId, client_secret: testApp.clientSecret },
      });
      const answer = await request(sandboxUrl, 'POST', '/public/v1/events/subscriptions', {
        token: token.json.access_token,
        body: {
          broadcaster_user_id: broadcasterUserId,
          method: 'webhook',
          events: events.map((name) => ({ name, version: 1 })),
        },
      });
      if (answer.status !== 200) throw new Error(`subscribe at Kick failed: ${answer.status} ${answer.text}`);
    },
    subscriptionsAtKick: (broadcasterUserId) =>
      stack.control('GET', `/subscriptions?broadcasterUserId=${broadcasterUserId}`),
    async kickUserId(username) {
      return (await stack.control<{ userId: number }>('GET', `/users/${username}`)).userId;
    },
    async close() {
      await kickLink.stop();
      await sandbox.stop();
      await forwarder.close();
      await platform.close();
      await sandboxStore.close();
    },
  };
  return stack;
}
