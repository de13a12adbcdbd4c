import { subscribableEvents, type SubscribableEvent } from '@kickstand/api-contract';

// The spec's business constants (§9) and fixed texts shared by more than one feature.

/** The product's name; the spec's `{product}`. */
export const productName = 'Kickstand';

/** Local-storage key of the bearer token (spec §9). */
export const tokenStorageKey = 'token';

export const toastDurations = {
  /** Default auto-dismiss. */
  defaultMs: 5000,
  sessionExpiredMs: 8000,
  duplicateLinkMs: 8000,
  linkErrorMs: 6000,
  /** The closing animation. */
  closeAnimationMs: 300,
} as const;

export const sessionExpiredMessage = 'Your session has expired. Please log in again.';

export const commandPrefix = '$';
export const commandCooldownMs = 1000;
export { maxResponseLength, responseWarningLength } from '@kickstand/api-contract';

export const chatLogLimit = 100;
export const autoScrollThresholdPx = 100;
export const chatPopout = { width: 400, height: 600 } as const;

export const botStatusLoadDelayMs = 100;
export const kickErrorCountdownSeconds = 5;
export const postLinkReloadDelayMs = 1000;
export const postLinkModalCloseDelayMs = 1000;
export const superAdminRedirectDelayMs = 100;

export const splashTimings = {
  stepMs: 800,
  waitAfterReadyMs: 4000,
  forcedTimeoutMs: 15_000,
  plainAfterReadyMs: 500,
} as const;

/** The admin panel's constants (spec §9). */
export const adminLoadingScreenMs = 500;
/** The user page fetches one page this big and filters it in the browser. */
export const adminUserFetch = { page: 1, limit: 200 } as const;
export const webhookUserPageSize = 20;
export const subscriptionPageSize = 10;
export const recentActivityLimit = 10;
export const auditLogPageSize = 20;
/** The webhook page's dead letters: 20 a page, newest first. */
export const deadLetterPageSize = 20;
export const analyticsDays = 14;

/** The eight subscribable Kick events, in the spec's order (the HTTP contract's); the first is selected by default. */
export { subscribableEvents, type SubscribableEvent };
export const defaultSubscribedEvent: SubscribableEvent = 'chat.message.sent';
