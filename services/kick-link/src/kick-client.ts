import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import { processMetrics } from '@kickstand/platform/metrics';
import {
  AnswerCutOffError,
  AttemptTimedOutError,
  type CollectedAnswer,
  decodeText,
  exchange,
  headerOf,
  QueuedTooLongError,
} from './kick-exchange';
import type { KickConnection, KickHttpTuning } from './options';

/**
 * A typed client for Kick's public API (shared/kick-api.md): the OAuth host and the REST API, both
 * at configurable base URLs, so the same code talks to real Kick or the sandbox. Every answer is
 * parsed with zod. Idempotent calls (GET, DELETE, and the token revoke and client-credentials
 * grants) are retried (p-retry) on 429, 408, 5xx, timeouts and network errors with jittered exponential
 * backoff, honouring Retry-After; everything else — POST /chat above all — is tried exactly once.
 * The transport is undici's `dispatch` on a keep-alive Agent with capped connections (kick-exchange.ts:
 * no redirects followed, one deadline per attempt from the moment it is written), not the global
 * `fetch`: its WHATWG machinery (Request/Response, AbortSignal, web streams) cost ~10 times the
 * request itself on the reply path (docs/performance.md, "The reply path: Kick's HTTP client").
 */
export interface KickClient {
  authorizeUrl(request: { state: string; codeChallenge: string; scopes: readonly string[] }): string;
  exchangeCode(request: { code: string; codeVerifier: string }): Promise<KickUserTokens>;
  refresh(refreshToken: string): Promise<KickUserTokens>;
  appToken(): Promise<KickAppToken>;
  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void>;
  /** The user who owns the token (§3.1, no id). */
  currentUser(userAccessToken: string): Promise<KickUser>;
  listSubscriptions(token: string, broadcasterUserId: string): Promise<KickSubscription[]>;
  subscribe(token: string, broadcasterUserId: string, events: readonly string[]): Promise<KickSubscribeResult[]>;
  unsubscribe(token: string, subscriptionIds: readonly string[]): Promise<void>;
  /**
   * Never retried: a retry could post the line twice. With `maxQueueWaitMs`, a line that waited
   * longer than that for a free connection to Kick is not sent at all (KickNotSentError).
   */
  sendChat(
    userAccessToken: string,
    message: KickChatMessage,
    options?: { maxQueueWaitMs?: number },
  ): Promise<KickSentChat>;
  /** DELETE /chat/{message_id} (§5.2, scope moderation:chat_message:manage). */
  deleteChatMessage(userAccessToken: string, messageId: string): Promise<void>;
  /** POST /moderation/bans (§6.1, scope moderation:ban): a timeout with `durationMinutes`, else a ban. */
  ban(userAccessToken: string, ban: KickBan): Promise<void>;
  /** DELETE /moderation/bans with a JSON body (§6.2): lifts a ban or a timeout. */
  unban(userAccessToken: string, broadcasterUserId: string, userId: string): Promise<void>;
  /** Sent without a token (§7): webhook verification must not depend on app credentials. */
  publicKey(): Promise<string>;
  /** Whether each channel is live now (`GET /channels`, §4.1); a channel Kick leaves out is absent. */
  liveChannels(token: string, broadcasterUserIds: readonly string[]): Promise<Map<string, boolean>>;
}

export interface KickUserTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  /** As granted, which may be fewer than asked for. */
  scopes: string[];
}

export interface KickAppToken {
  accessToken: string;
  expiresInSeconds: number;
}

export interface KickUser {
  /** Decimal string (Kick's integer). For a broadcaster this is the broadcaster_user_id. */
  userId: string;
  name: string;
  email: string;
  profilePicture: string;
}

export interface KickSubscription {
  id: string;
  broadcasterUserId: string;
  event: string;
  version: number;
}

export interface KickSubscribeResult {
  name: string;
  subscriptionId: string;
  /** Empty on success. */
  error: string;
}

export type KickChatMessage =
  | { type: 'bot'; content: string; replyToMessageId?: string }
  | { type: 'user'; broadcasterUserId: string; content: string; replyToMessageId?: string };

export interface KickBan {
  broadcasterUserId: string;
  userId: string;
  /** 1–10080 minutes; absent for a permanent ban. */
  durationMinutes?: number;
  /** At most 100 characters. */
  reason: string;
}

export interface KickSentChat {
  isSent: boolean;
  messageId: string;
}

/** Kick answered with an error status. `reason` is Kick's own words where it gave any. */
export class KickApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    /** The OAuth `error` code (`invalid_grant`, `Invalid request`…) when the OAuth host answered. */
    readonly oauthError?: string,
    /** Kick's Retry-After in milliseconds, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(`Kick answered ${status}: ${reason}`);
    this.name = 'KickApiError';
  }
}

/** Kick could not be reached in time (timeout, connection refused, DNS…). */
export class KickUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KickUnreachableError';
  }
}

/**
 * The request was never sent: it waited for one of the capped connections to Kick (tuning's
 * maxConnections) longer than its caller allowed. Unlike a timeout, Kick surely did not take it.
 */
export class KickNotSentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KickNotSentError';
  }
}

/** Kick answered 2xx with something that is not the documented shape. */
export class KickResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KickResponseError';
  }
}

const envelope = <T extends z.ZodType>(data: T) => z.object({ data, message: z.string().nullish() });

const userTokensSchema = z
  .object({
    access_token: z.string().min(1),
    refresh_token: z.string().min(1),
    // very early docs called it `expiry` (kick-api.md §2.4)
    expires_in: z.number().positive().optional(),
    expiry: z.number().positive().optional(),
    scope: z.string().nullish(),
  })
  .refine((body) => body.expires_in !== undefined || body.expiry !== undefined, 'expires_in is missing');

const appTokenSchema = z
  .object({
    access_token: z.string().min(1),
    expires_in: z.number().positive().optional(),
    expiry: z.number().positive().optional(),
  })
  .refine((body) => body.expires_in !== undefined || body.expiry !== undefined, 'expires_in is missing');

const usersSchema = envelope(
  z.array(
    z.object({
      user_id: z.number().int(),
      name: z.string(),
      email: z.string().nullish(),
      profile_picture: z.string().nullish(),
    }),
  ),
);

const subscriptionsSchema = envelope(
  z.array(
    z.object({
      id: z.string().min(1),
      broadcaster_user_id: z.number().int(),
      event: z.string(),
      version: z.number().int().nullish(),
    }),
  ),
);

const subscribeResultsSchema = envelope(
  z.array(
    z.object({
      name: z.string(),
      subscription_id: z.string().nullish(),
      error: z.string().nullish(),
    }),
  ),
);

const sentChatSchema = envelope(z.object({ is_sent: z.boolean(), message_id: z.string().nullish() }));

const channelsSchema = envelope(
  z.array(
    z.object({
      broadcaster_user_id: z.number().int(),
      // offline channels have been seen with the stream object empty or missing (§4.1)
      stream: z.object({ is_live: z.boolean().nullish() }).nullish(),
    }),
  ),
);

const publicKeySchema = envelope(z.object({ public_key: z.string().min(1) }));

const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().nullish() });
const restErrorSchema = z.object({ data: z.unknown().optional(), message: z.string() });

/** Kick's own words from an error body: RFC 6749 `error_description`/`error`, or the REST `data`/`message`. */
export function reasonOf(status: number, text: string): { reason: string; oauthError?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const oauth = oauthErrorSchema.safeParse(json);
  if (oauth.success) {
    return { reason: oauth.data.error_description || oauth.data.error, oauthError: oauth.data.error };
  }
  const rest = restErrorSchema.safeParse(json);
  if (rest.success) {
    const data = rest.data.data;
    return { reason: typeof data === 'string' && data.trim() !== '' ? data : rest.data.message };
  }
  const plain = text.trim();
  // an HTML page (an edge firewall's 403) is not a reason anyone should read
  if (plain !== '' && plain.length <= 200 && !plain.startsWith('<')) return { reason: plain };
  return { reason: `HTTP ${status}` };
}

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Where a request goes: Kick's origin (scheme, host, port) and the path with its query. */
interface Target {
  origin: string;
  path: string;
}

interface RequestSpec extends Target {
  method: 'GET' | 'POST' | 'DELETE';
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  /** Safe to send again: retried on 429, 408, 5xx, timeouts and network errors. */
  isIdempotent: boolean;
  /** Given up unsent after waiting this long for a free connection (KickNotSentError); no limit when absent. */
  maxQueueWaitMs?: number;
}

interface RawAnswer {
  status: number;
  text: string;
  /** How long the answered attempt waited to be written (kick-exchange.ts: CollectedAnswer.queuedMs). */
  queuedMs: number;
}

export interface KickClientDeps {
  connection: KickConnection;
  tuning: KickHttpTuning;
  /** For the jitter; Math.random by default. */
  random?: () => number;
  /** For waiting between attempts; setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The connections to Kick; by default one keep-alive Agent shared by the process (as fetch's was),
   * at most `tuning.maxConnections` to a host.
   */
  agent?: Dispatcher;
}

/**
 * Made on first use and shared, like the global dispatcher fetch used: idle sockets are unref'ed,
 * so they never hold the process open, and undici closes them before the server's keep-alive
 * timeout (it reads the server's `Keep-Alive: timeout=…`). One per connection cap and timeout
 * (tuning's maxConnections and timeoutMs), which a process sets once.
 */
const sharedAgents = new Map<string, Agent>();
function defaultAgent(tuning: KickHttpTuning): Agent {
  const key = `${tuning.maxConnections}/${tuning.timeoutMs}`;
  let agent = sharedAgents.get(key);
  if (!agent) {
    // the attempt's deadline starts once the request is written (kick-exchange.ts): connecting has its own
    agent = new Agent({ connections: tuning.maxConnections, connect: { timeout: tuning.timeoutMs } });
    sharedAgents.set(key, agent);
  }
  return agent;
}

/**
 * Sent with every request as fetch sent them; fetch's browser headers (`sec-fetch-mode`,
 * `accept-language`) and `accept-encoding` are left out, so answers come uncompressed (a compressed
 * one is still decoded, see decodeText). The user agent stays fetch's: what real Kick's edge has seen.
 */
const baseHeaders = { accept: 'application/json', 'user-agent': 'node' } as const;

/** An origin and a path prefix from a configured base URL (`https://api.kick.com/public/v1`). */
function splitBase(base: string): { origin: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(base);
  } catch (error) {
    throw new KickUnreachableError(`${base} is not a URL`, { cause: error });
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/$/, '') };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 429 and 408 say "try later"; a 5xx may be passing; any other 4xx will not change on its own. */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** p-retry is an ES module; this CommonJS build reaches it with a dynamic import (once). */
const importPRetry = () => import('p-retry');
let pRetryModule: ReturnType<typeof importPRetry> | undefined;
const loadPRetry = () => (pRetryModule ??= importPRetry());

export function createKickClient(deps: KickClientDeps): KickClient {
  const { connection, tuning } = deps;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? defaultSleep;
  const agent = deps.agent ?? defaultAgent(tuning);
  /** POST /chat written → Kick's answer (docs/performance.md, "Where the reply latency goes"). */
  const kickPostStage = processMetrics().replyStage.labels({ service: 'kick-link', stage: 'kick-post' });
  /**
   * POST /chat called → written. On a connection that has answered before, undici writes in the
   * event loop's check phase, after the rest of the turn (it first reads anything the server sent
   * unasked: GHSA-35p6-xmwp-9g52), so this is mostly the rest of the owner's turn; plus any wait
   * for one of the capped connections, and a connect.
   */
  const kickQueueStage = processMetrics().replyStage.labels({ service: 'kick-link', stage: 'kick-queue' });

  /** Full jitter on the upper half: between 50% and 100% of the doubled delay. */
  const backoff = (attempt: number) => {
    const ceiling = Math.min(tuning.maxBackoffMs, tuning.initialBackoffMs * 2 ** (attempt - 1));
    return Math.round(ceiling * (0.5 + random() / 2));
  };

  async function send(spec: RequestSpec): Promise<RawAnswer> {
    const headers: Record<string, string> = { ...baseHeaders };
    let body: string | undefined;
    if (spec.token) headers.authorization = `Bearer ${spec.token}`;
    if (spec.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(spec.form).toString();
    } else if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.method === 'POST') {
      // Kick's revoke takes its parameters in the query, yet wants the form content type (§2.6)
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = '';
    }
    const url = redact(`${spec.origin}${spec.path}`);
    const once = async (): Promise<RawAnswer> => {
      let answer: CollectedAnswer;
      try {
        // redirects are not followed (undici's dispatch never does), as fetch's `redirect: 'manual'`
        answer = await exchange(
          agent,
          { origin: spec.origin, path: spec.path, method: spec.method, headers, body },
          { timeoutMs: tuning.timeoutMs, maxQueueWaitMs: spec.maxQueueWaitMs },
        );
      } catch (error) {
        if (error instanceof QueuedTooLongError) {
          throw new KickNotSentError(`${spec.method} ${url} was not sent: ${error.message}`);
        }
        if (error instanceof AnswerCutOffError) {
          throw new KickUnreachableError(`${spec.method} ${url}: the answer was cut off`, { cause: error.cause });
        }
        const why = error instanceof AttemptTimedOutError ? 'timed out' : describeError(error);
        throw new KickUnreachableError(`${spec.method} ${url} failed: ${why}`, { cause: error });
      }
      let text: string;
      try {
        text = decodeText(answer);
      } catch (error) {
        throw new KickUnreachableError(`${spec.method} ${url}: the answer was cut off`, { cause: error });
      }
      const status = answer.statusCode;
      if (status < 200 || status >= 300) {
        const { reason, oauthError } = reasonOf(status, text);
        const retryAfter = retryAfterMs(headerOf(answer.headers, 'retry-after'), Date.now());
        throw new KickApiError(status, reason, oauthError, retryAfter);
      }
      return { status, text, queuedMs: answer.queuedMs };
    };
    if (!spec.isIdempotent) return once();
    const { default: pRetry } = await loadPRetry();
    return pRetry(once, {
      retries: Math.max(1, tuning.maxAttempts) - 1,
      // the wait is chosen per failure (Retry-After or the jittered backoff) in shouldRetry, which
      // p-retry cannot express with its own timer: that timer is off
      minTimeout: 0,
      shouldRetry: async ({ error, attemptNumber }) => {
        const wait = waitBeforeRetry(error, attemptNumber);
        if (wait === undefined) return false;
        await sleep(wait);
        return true;
      },
    });
  }

  /** How long to wait before trying again after this failure, or undefined when it is not retried. */
  function waitBeforeRetry(error: Error, attempt: number): number | undefined {
    if (error instanceof KickUnreachableError) return backoff(attempt);
    if (!(error instanceof KickApiError) || !isRetryableStatus(error.status)) return undefined;
    if (error.retryAfterMs === undefined) return backoff(attempt);
    // a long Retry-After is not waited for: the call fails now instead
    return error.retryAfterMs <= tuning.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }

  function parse<S extends z.ZodType>(schema: S, answer: RawAnswer, what: string): z.infer<S> {
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      throw new KickResponseError(`${what}: Kick's answer is not JSON`);
    }
    const result = schema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new KickResponseError(
        `${what}: unexpected answer (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`,
      );
    }
    return result.data;
  }

  // split on first use: a client is made (and its authorize URL built) before the URLs are checked
  let apiBase: { origin: string; prefix: string } | undefined;
  let oauthBase: { origin: string; prefix: string } | undefined;
  const api = (path: string): Target => {
    apiBase ??= splitBase(connection.apiUrl);
    return { origin: apiBase.origin, path: `${apiBase.prefix}${path}` };
  };
  const oauth = (path: string): Target => {
    oauthBase ??= splitBase(connection.oauthUrl);
    return { origin: oauthBase.origin, path: `${oauthBase.prefix}${path}` };
  };
  const withQuery = (target: Target, query: URLSearchParams): Target => ({
    origin: target.origin,
    path: `${target.path}?${query.toString()}`,
  });

  function userTokens(answer: RawAnswer, what: string): KickUserTokens {
    const body = parse(userTokensSchema, answer, what);
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresInSeconds: body.expires_in ?? body.expiry ?? 0,
      scopes: (body.scope ?? '').split(' ').filter(Boolean),
    };
  }

  const client = { client_id: connection.clientId, client_secret: connection.clientSecret };

  return {
    authorizeUrl({ state, codeChallenge, scopes }) {
      const params = new URLSearchParams();
      // Kick's login page rewrites the first "127.0.0.1" of the URL to "localhost", which would break
      // the exact redirect match; a throw-away parameter before redirect_uri takes the hit (§2.3)
      if (connection.redirectUri.includes('127.0.0.1')) params.append('redirect', '127.0.0.1');
      params.append('client_id', connection.clientId);
      params.append('response_type', 'code');
      params.append('redirect_uri', connection.redirectUri);
      params.append('scope', scopes.join(' '));
      params.append('code_challenge', codeChallenge);
      params.append('code_challenge_method', 'S256');
      params.append('state', state);
      return `${connection.oauthUrl}/oauth/authorize?${params.toString()}`;
    },

    async exchangeCode({ code, codeVerifier }) {
      const answer = await send({
        method: 'POST',
        ...oauth('/oauth/token'),
        form: {
          grant_type: 'authorization_code',
          ...client,
          code,
          redirect_uri: connection.redirectUri,
          code_verifier: codeVerifier,
        },
        isIdempotent: false,
      });
      return userTokens(answer, 'token exchange');
    },

    async refresh(refreshToken) {
      const answer = await send({
        method: 'POST',
        ...oauth('/oauth/token'),
        form: { grant_type: 'refresh_token', ...client, refresh_token: refreshToken },
        isIdempotent: false,
      });
      return userTokens(answer, 'token refresh');
    },

    async appToken() {
      const answer = await send({
        method: 'POST',
        ...oauth('/oauth/token'),
        form: { grant_type: 'client_credentials', ...client },
        // asking for an app token again only makes another one
        isIdempotent: true,
      });
      const body = parse(appTokenSchema, answer, 'app token');
      return { accessToken: body.access_token, expiresInSeconds: body.expires_in ?? body.expiry ?? 0 };
    },

    async revoke(token, hint) {
      const query = new URLSearchParams({ token, token_hint_type: hint });
      await send({ method: 'POST', ...withQuery(oauth('/oauth/revoke'), query), isIdempotent: true });
    },

    async currentUser(userAccessToken) {
      const answer = await send({ method: 'GET', ...api('/users'), token: userAccessToken, isIdempotent: true });
      const user = parse(usersSchema, answer, 'GET /users').data[0];
      if (!user) throw new KickResponseError('GET /users: Kick returned no user for the token');
      return {
        userId: String(user.user_id),
        name: user.name,
        email: user.email ?? '',
        profilePicture: user.profile_picture ?? '',
      };
    },

    async listSubscriptions(token, broadcasterUserId) {
      const query = new URLSearchParams({ broadcaster_user_id: broadcasterUserId });
      const answer = await send({
        method: 'GET',
        ...withQuery(api('/events/subscriptions'), query),
        token,
        isIdempotent: true,
      });
      return (
        parse(subscriptionsSchema, answer, 'GET /events/subscriptions')
          .data.map((item) => ({
            id: item.id,
            broadcasterUserId: String(item.broadcaster_user_id),
            event: item.event,
            version: item.version ?? 1,
          }))
          // the filter parameter is not documented [obs/?]: keep only this channel's
          .filter((item) => item.broadcasterUserId === broadcasterUserId)
      );
    },

    async subscribe(token, broadcasterUserId, events) {
      const answer = await send({
        method: 'POST',
        ...api('/events/subscriptions'),
        token,
        json: {
          broadcaster_user_id: Number(broadcasterUserId),
          method: 'webhook',
          events: events.map((name) => ({ name, version: 1 })),
        },
        // posting the same event twice makes a second subscription (§8.4)
        isIdempotent: false,
      });
      return parse(subscribeResultsSchema, answer, 'POST /events/subscriptions').data.map((item) => ({
        name: item.name,
        subscriptionId: item.subscription_id ?? '',
        error: item.error ?? '',
      }));
    },

    async unsubscribe(token, subscriptionIds) {
      for (let start = 0; start < subscriptionIds.length; start += 50) {
        const query = new URLSearchParams();
        for (const id of subscriptionIds.slice(start, start + 50)) query.append('id', id);
        await send({
          method: 'DELETE',
          ...withQuery(api('/events/subscriptions'), query),
          token,
          isIdempotent: true,
        });
      }
    },

    async sendChat(userAccessToken, message, options) {
      const body: Record<string, unknown> = { type: message.type, content: message.content };
      if (message.type === 'user') body.broadcaster_user_id = Number(message.broadcasterUserId);
      if (message.replyToMessageId) body.reply_to_message_id = message.replyToMessageId;
      const startedAt = performance.now();
      const answer = await send({
        method: 'POST',
        ...api('/chat'),
        token: userAccessToken,
        json: body,
        isIdempotent: false,
        maxQueueWaitMs: options?.maxQueueWaitMs,
      });
      kickQueueStage.observe(answer.queuedMs / 1000);
      kickPostStage.observe((performance.now() - startedAt - answer.queuedMs) / 1000);
      const data = parse(sentChatSchema, answer, 'POST /chat').data;
      return { isSent: data.is_sent, messageId: data.message_id ?? '' };
    },

    async deleteChatMessage(userAccessToken, messageId) {
      await send({
        method: 'DELETE',
        ...api(`/chat/${encodeURIComponent(messageId)}`),
        token: userAccessToken,
        isIdempotent: true,
      });
    },

    async ban(userAccessToken, ban) {
      await send({
        method: 'POST',
        ...api('/moderation/bans'),
        token: userAccessToken,
        json: {
          broadcaster_user_id: Number(ban.broadcasterUserId),
          user_id: Number(ban.userId),
          ...(ban.durationMinutes === undefined ? {} : { duration: ban.durationMinutes }),
          reason: ban.reason,
        },
        // banning again changes nothing, but a timeout would restart: tried once, as Kick says nothing on retries
        isIdempotent: false,
      });
    },

    async unban(userAccessToken, broadcasterUserId, userId) {
      await send({
        method: 'DELETE',
        ...api('/moderation/bans'),
        token: userAccessToken,
        json: { broadcaster_user_id: Number(broadcasterUserId), user_id: Number(userId) },
        isIdempotent: true,
      });
    },

    async publicKey() {
      const answer = await send({ method: 'GET', ...api('/public-key'), isIdempotent: true });
      return parse(publicKeySchema, answer, 'GET /public-key').data.public_key;
    },

    async liveChannels(token, broadcasterUserIds) {
      const live = new Map<string, boolean>();
      // batches of 25: larger ones have been reported to return wrong data (§4.1)
      for (let start = 0; start < broadcasterUserIds.length; start += 25) {
        const query = new URLSearchParams();
        for (const id of broadcasterUserIds.slice(start, start + 25)) query.append('broadcaster_user_id', id);
        const answer = await send({
          method: 'GET',
          ...withQuery(api('/channels'), query),
          token,
          isIdempotent: true,
        });
        for (const channel of parse(channelsSchema, answer, 'GET /channels').data) {
          live.set(String(channel.broadcaster_user_id), channel.stream?.is_live === true);
        }
      }
      return live;
    },
  };
}

/** The revoke URL carries a token in its query: never in a message. */
function redact(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? url : `${url.slice(0, at)}?…`;
}

/** A header's value as one string (Retry-After comes once; a repeated one counts by its first). */
function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A streamer-readable reason for a failed Kick call. */
export function kickProblem(error: unknown): string {
  if (error instanceof KickApiError) return error.reason;
  if (error instanceof KickUnreachableError) return 'Kick could not be reached';
  if (error instanceof KickResponseError) return 'Kick answered in an unexpected way';
  return 'something went wrong';
}
