import { defaultChatLinesKept, defaultRecordsKept } from './repository';
import type { RealKickSettingsPatch } from './real-kick';
import type { FaultSettings } from './webhooks/faults';

/** The one app registered with the sandbox, as a Kick developer would register it. */
export interface KickSandboxApp {
  clientId: string;
  clientSecret: string;
  name: string;
  /** Compared byte for byte with the authorize request's redirect_uri. */
  redirectUris: string[];
  /** App-wide, like Kick: every subscribed event of every channel is POSTed here. */
  webhookUrl: string;
  /** Kick's "Enable Webhooks" switch; turning it off at runtime drops every subscription. Default true. */
  isWebhookEnabled?: boolean;
  /** The developer-settings switch behind `POST /chat` with `type: "bot"`. Default true. */
  isBotEnabled?: boolean;
  /** The Kick account `type: "bot"` messages appear from. Default `kickstand_app`. */
  botUsername?: string;
}

export interface KickSandboxTokenLifetimes {
  /** Default 7200 (Kick's user access token). */
  userAccessSeconds?: number;
  /** Default 5 184 000 (60 days, Kick's app access token). */
  appAccessSeconds?: number;
  /** Default 2 592 000 (30 days). */
  refreshSeconds?: number;
  /** How long a refresh token still works after it was exchanged. Default 60. */
  refreshGraceSeconds?: number;
  /** Default 600. */
  authorizationCodeSeconds?: number;
}

export interface KickSandboxDeliveryOptions {
  /** How long one webhook POST may take. Default 5000. */
  timeoutMs?: number;
  /** Pause before a retry (when the retry fault allows one). Default 1000. */
  retryDelayMs?: number;
  /** How long an out-of-order delivery waits for a later one to overtake it. Default 2000. */
  outOfOrderHoldMs?: number;
  /** How far in the past a stale timestamp lies. Default 600 (10 minutes). */
  staleTimestampSeconds?: number;
  /**
   * How many deliveries (of different channels) are signed and sent at once, over as many kept-alive
   * connections; the others wait for a free one, each channel's still in order. Default 16.
   */
  maxInFlight?: number;
}

export interface KickSandboxOptions {
  /** The sandbox's own base URL (`http://localhost:3100`): image URLs and the index page use it. */
  publicUrl: string;
  app: KickSandboxApp;
  tokens?: KickSandboxTokenLifetimes;
  /** Per-app event subscription limit. Default 1000. */
  subscriptionLimit?: number;
  /** Chat messages the app may send per UTC day; null (default) means no limit. */
  chatDailyQuota?: number | null;
  delivery?: KickSandboxDeliveryOptions;
  /** Faults switched on from the start (the control API can change them later). Default: none. */
  faults?: Partial<FaultSettings>;
  /**
   * Real Kick's undocumented behaviour switched on from the start (`realKickPreset` for the usual
   * set; the control API can change it later). Default: none, kick-api.md to the letter.
   */
  realKick?: RealKickSettingsPatch;
  /** Create the demo users and channels on first start. Default true. */
  isSeeded?: boolean;
  /**
   * An RSA private key (PEM) to sign deliveries with, instead of the key made at first start and
   * kept in the store. A load generator holding it can sign deliveries itself, exactly as Kick does.
   */
  signingKeyPem?: string;
  /**
   * Accept `POST /chat` with a `reply_to_message_id` the sandbox never saw (recorded as a reply to
   * that id) instead of refusing it as Kick does. For load tests whose viewer lines go straight to
   * the product's webhook without passing through the sandbox. Default false.
   */
  acceptsUnknownReplyTargets?: boolean;
  /**
   * How many calls, and how many deliveries, are kept for `GET /sandbox/api/calls` and
   * `/deliveries` (in memory, the newest; a restart starts them over). Default 10,000.
   */
  recordsKept?: number;
  /** How many chat lines are kept (in memory, the newest; a restart starts them over). Default 50,000. */
  chatLinesKept?: number;
}

export interface ResolvedOptions {
  publicUrl: string;
  app: Required<KickSandboxApp>;
  tokens: Required<KickSandboxTokenLifetimes>;
  subscriptionLimit: number;
  chatDailyQuota: number | null;
  delivery: Required<KickSandboxDeliveryOptions>;
  faults: Partial<FaultSettings>;
  realKick: RealKickSettingsPatch;
  isSeeded: boolean;
  signingKeyPem: string | undefined;
  acceptsUnknownReplyTargets: boolean;
  recordsKept: number;
  chatLinesKept: number;
}

/** Spreads only the values that are set, so `{ timeoutMs: undefined }` keeps the default. */
function withDefaults<T extends object>(defaults: Required<T>, given: T | undefined): Required<T> {
  const defined = Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined));
  return { ...defaults, ...defined };
}

export function resolveOptions(options: KickSandboxOptions): ResolvedOptions {
  return {
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    app: withDefaults<KickSandboxApp>(
      { ...options.app, isWebhookEnabled: true, isBotEnabled: true, botUsername: 'kickstand_app' },
      { ...options.app, redirectUris: [...options.app.redirectUris] },
    ),
    tokens: withDefaults<KickSandboxTokenLifetimes>(
      {
        userAccessSeconds: 7200,
        appAccessSeconds: 5_184_000,
        refreshSeconds: 2_592_000,
        refreshGraceSeconds: 60,
        authorizationCodeSeconds: 600,
      },
      options.tokens,
    ),
    subscriptionLimit: options.subscriptionLimit ?? 1000,
    chatDailyQuota: options.chatDailyQuota ?? null,
    delivery: withDefaults<KickSandboxDeliveryOptions>(
      { timeoutMs: 5000, retryDelayMs: 1000, outOfOrderHoldMs: 2000, staleTimestampSeconds: 600, maxInFlight: 16 },
      options.delivery,
    ),
    faults: options.faults ?? {},
    realKick: options.realKick ?? {},
    isSeeded: options.isSeeded ?? true,
    signingKeyPem: options.signingKeyPem,
    acceptsUnknownReplyTargets: options.acceptsUnknownReplyTargets ?? false,
    recordsKept: options.recordsKept ?? defaultRecordsKept,
    chatLinesKept: options.chatLinesKept ?? defaultChatLinesKept,
  };
}
