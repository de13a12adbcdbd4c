import type { SpoolDisk } from '@kickstand/platform/bus';

/** Where Kick is and who we are to it: real Kick and the sandbox differ only here. */
export interface KickConnection {
  clientId: string;
  clientSecret: string;
  /** Sent on authorize and on the code exchange; must match the app's registered one byte for byte. */
  redirectUri: string;
  /** The identity host: `https://id.kick.com`, or the sandbox's base URL. */
  oauthUrl: string;
  /** The REST base with its version: `https://api.kick.com/public/v1`, or `<sandbox>/public/v1`. */
  apiUrl: string;
}

/**
 * Who posts replies (kick-api.md §5.1). `auto`: the platform's bot account when one is linked, else
 * the streamer's token with `type: "bot"`, falling back per channel to `type: "user"` when Kick
 * refuses `bot`. `bot` / `user`: always the streamer's token with that type (no bot account, no fallback).
 */
export type ChatSenderMode = 'auto' | 'bot' | 'user';

/** The Kick client's timeouts and retries (kick-client.ts). */
export interface KickHttpTuning {
  /** Per attempt. Default 5000. */
  timeoutMs: number;
  /** Attempts of an idempotent call, the first included. Default 3. */
  maxAttempts: number;
  /** First backoff; doubles per attempt, jittered. Default 250. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** A Retry-After longer than this is not waited for: the call fails instead. Default 10000. */
  maxRetryAfterMs: number;
  /**
   * Connections open to one Kick host at most; a request beyond them waits for a free one. Default
   * 32. Without a cap a burst of replies (after a pause of the process) opened one connection each,
   * ~300 at 1,000 msg/s, a TLS handshake apiece on real Kick (docs/performance.md, "Connections to Kick").
   */
  maxConnections: number;
}

export interface KickLinkOptions {
  kick: KickConnection;
  /**
   * 32 bytes for AES-256-GCM. Without it, outside production, a key is generated at first start and
   * kept in `tokenKeyFile` (0600), apart from the store it protects (token-key.ts).
   * In production start() refuses to run without it.
   */
  tokenEncryptionKey?: Buffer;
  /** Where a generated key is kept: `DATA_DIR/keys/kick-token-encryption.key` (tokenKeyFileIn). */
  tokenKeyFile?: string;
  isProduction?: boolean;
  /** Default `auto` (see ChatSenderMode). */
  chatSender?: ChatSenderMode;
  /**
   * The Kick username `type: "bot"` lines appear from (the app's bot), to mark them is_from_bot
   * besides the sent ids. Not needed for the linked bot account: its user id is known.
   */
  botUsername?: string;
  /** Tuning; tests shorten these. */
  http?: Partial<KickHttpTuning>;
  /** Refresh a user token when less than this is left. Default 300. */
  refreshAheadSeconds?: number;
  /**
   * A webhook timestamp further than this from our clock is refused. Default 300. The send claims'
   * 10 minutes (repository.ts retention.sendClaimSeconds) rely on it being at most 5 minutes.
   */
  webhookToleranceSeconds?: number;
  /** An OAuth state is good for this long. Default 600. */
  oauthStateSeconds?: number;
  /** After a failed signature check, Kick's public key is fetched again at most this often. Default 60000 (a minute). */
  publicKeyRefetchIntervalMs?: number;
  /** The webhook key used while Kick's cannot be fetched. Default: the key published in Kick's docs (§7). */
  publicKeyFallbackPem?: string;
  /** Subscription reconcile and delivery-health timing (reconciler.ts, delivery-health-store.ts). */
  deliveryHealth?: DeliveryHealthTiming;
  /**
   * The webhook door's spool, for a bus that can be down (Kafka): a delivery the bus does not take
   * within `publishTimeoutMs` is fsynced here, answered 200, and forwarded in order once the bus
   * is back. Unset (single-machine mode's in-process bus always takes it): straight to the bus.
   */
  webhookSpool?: WebhookSpoolOptions;
}

export interface WebhookSpoolOptions {
  /** A directory on a volume that outlives the process (and, on Kubernetes, the pod). */
  dir: string;
  /** The most bytes held; past it, deliveries the bus cannot take are answered 503. */
  maxBytes: number;
  /** Default 1500. */
  publishTimeoutMs?: number;
  /** The forwarder's pause between tries of a bus that is down. Default 1000. */
  retryDelayMs?: number;
  /** Tests put a disk that fails on demand here. */
  disk?: SpoolDisk;
}

export interface DeliveryHealthTiming {
  /** Each running bot's subscriptions are checked this often. Default 600000 (10 minutes). */
  reconcileIntervalMs?: number;
  /** How often an instance looks for channels due a check; 0 turns the reconciler off. Default 60000. */
  reconcileTickMs?: number;
  /** The first check after a bot's START. Default 30000. */
  reconcileAfterStartMs?: number;
  /** Gathered health reports are stored this often; 0 turns the timer off. Default 30000. */
  flushIntervalMs?: number;
  /** Names this instance in the reconcile claims. Default the host name and a random suffix. */
  instanceId?: string;
}

export interface ResolvedOptions {
  kick: KickConnection;
  tokenEncryptionKey: Buffer | undefined;
  tokenKeyFile: string | undefined;
  isProduction: boolean;
  chatSender: ChatSenderMode;
  botUsername: string | undefined;
  http: KickHttpTuning;
  refreshAheadSeconds: number;
  webhookToleranceSeconds: number;
  oauthStateSeconds: number;
  publicKeyRefetchIntervalMs: number;
  publicKeyFallbackPem: string | undefined;
}

export const defaultHttpTuning: KickHttpTuning = {
  timeoutMs: 5000,
  maxAttempts: 3,
  initialBackoffMs: 250,
  maxBackoffMs: 5000,
  maxRetryAfterMs: 10_000,
  maxConnections: 32,
};

export function resolveOptions(options: KickLinkOptions): ResolvedOptions {
  const definedHttp = Object.fromEntries(Object.entries(options.http ?? {}).filter(([, value]) => value !== undefined));
  return {
    kick: {
      ...options.kick,
      oauthUrl: options.kick.oauthUrl.replace(/\/+$/, ''),
      apiUrl: options.kick.apiUrl.replace(/\/+$/, ''),
    },
    tokenEncryptionKey: options.tokenEncryptionKey,
    tokenKeyFile: options.tokenKeyFile,
    isProduction: options.isProduction ?? false,
    chatSender: options.chatSender ?? 'auto',
    botUsername: options.botUsername,
    http: { ...defaultHttpTuning, ...definedHttp },
    refreshAheadSeconds: options.refreshAheadSeconds ?? 300,
    webhookToleranceSeconds: options.webhookToleranceSeconds ?? 300,
    oauthStateSeconds: options.oauthStateSeconds ?? 600,
    publicKeyRefetchIntervalMs: options.publicKeyRefetchIntervalMs ?? 60_000,
    publicKeyFallbackPem: options.publicKeyFallbackPem,
  };
}
