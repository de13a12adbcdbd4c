import { LRUCache } from 'lru-cache';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type KickStatus, kickLinkMessages, moderationScopes, oauthCallbackQuerySchema } from '@kickstand/api-contract';
import type { Clock } from '@kickstand/platform/clock';
import { notFound } from '@kickstand/platform/errors';
import type { Logger } from '@kickstand/platform/log';
import type { OutboxRelay } from '@kickstand/platform/outbox';
import { DuplicateKeyError } from '@kickstand/platform/store';
import { ChatSubscriptionState, KickAccountChangeKind } from '@kickstand/proto';
import { botAccountScopes, type BotAccountDirectory, type BotAccountView } from './bot-account';
import type { KickLinkPublisher } from './publisher';
import type { KickClient, KickUserTokens } from './kick-client';
import { openTokens, sealTokens } from './kick-tokens';
import { browserKeyHash, isSameBrowser, newBrowserKey, type BrowserKeys } from './oauth-browser';
import { botAccountId, type KickLinkRepository, type LinkDoc, type OAuthFlow } from './repository';
import type { ChannelSubscriptions } from './subscriptions';
import type { TokenCipher } from './token-crypto';

// ---------------------------------------------------------------------------------------------
// The rules (pure)
// ---------------------------------------------------------------------------------------------

/**
 * What the link asks Kick for: exactly the scopes of the calls made with a user token
 * (kick-api.md §2.9), so that a streamer is asked for nothing the product does not do.
 * - `user:read`: GET /users, who the linked account is (at the callback).
 * - `chat:write`: POST /chat, the bot's replies posted with the streamer's token.
 * Not asked: `events:subscribe` (subscriptions are made with the app token, §8.2, which needs no
 * scope), `channel:read` (no /channels call); `moderation:*` only on demand (linkScopesFor).
 * A feature that makes a new kind of call adds its scope here (and streamers link again).
 */
export const linkScopes = ['user:read', 'chat:write'] as const;

/**
 * The moderation filters (bot-runner) delete messages and ban: `moderation:chat_message:manage`
 * and `moderation:ban` (kick-api.md §5.2, §6), asked only when the streamer switches a filter on
 * ("Grant moderation access" starts the link with them), and kept on every later link once granted.
 */
export const linkScopesFor = (withModeration: boolean): readonly string[] =>
  withModeration ? [...linkScopes, ...moderationScopes] : linkScopes;

/** Without these the link is useless: the bot cannot speak. */
export const essentialScopes = ['chat:write'] as const;

export const noLinkMessage = kickLinkMessages.noLink;

export type LinkOutcome =
  | { kind: 'linked' }
  | { kind: 'duplicate'; kickUsername: string }
  /** The streamer pressed Deny on Kick's consent page: not an error, the dashboard says so calmly. */
  | { kind: 'denied' }
  | { kind: 'failed' };

/** Where the browser goes after the callback (spec §4). Always relative: the browser is on the gateway. */
export function dashboardLocation(outcome: LinkOutcome): string {
  switch (outcome.kind) {
    case 'linked':
      return '/dashboard?kick_linked=true';
    case 'duplicate':
      return `/dashboard?kick_error=duplicate&username=${encodeURIComponent(outcome.kickUsername)}`;
    case 'denied':
      return '/dashboard?kick_error=denied';
    case 'failed':
      return '/dashboard?kick_error=general';
  }
}

/** Where the admin's browser goes after linking the bot account: the admin page with its section. */
export function botAccountLocation(outcome: 'linked' | 'failed' | 'missing-scope'): string {
  switch (outcome) {
    case 'linked':
      return '/admin/webhooks?bot_linked=true';
    case 'missing-scope':
      return '/admin/webhooks?bot_error=scope';
    case 'failed':
      return '/admin/webhooks?bot_error=general';
  }
}

export const noBotAccountMessage = 'No bot account is linked';

export type LinkDecision =
  /** Another Kickstand user holds this Kick account. */
  | { kind: 'duplicate' }
  /** The user links the account they already have: new tokens, same link date. */
  | { kind: 'relink'; current: LinkDoc }
  /** The user had another Kick account linked: that one is undone first. */
  | { kind: 'replace'; previous: LinkDoc }
  | { kind: 'new' };

export function decideLink(userId: string, holder: LinkDoc | null, own: LinkDoc | null): LinkDecision {
  if (holder && holder._id !== userId) return { kind: 'duplicate' };
  if (own && holder && own._id === holder._id) return { kind: 'relink', current: own };
  if (own) return { kind: 'replace', previous: own };
  return { kind: 'new' };
}

export function missingScopes(granted: readonly string[]): string[] {
  // Kick always reports the granted scopes; an answer without any is taken as "as asked"
  if (granted.length === 0) return [];
  return essentialScopes.filter((scope) => !granted.includes(scope));
}

/** The spec's Kick status response (§3): the HTTP contract's. */
export type { KickStatus };

export function statusOf(link: LinkDoc | null): KickStatus {
  if (!link) return { hasKickAccount: false, kickAccount: null, needsRelink: false };
  return {
    hasKickAccount: true,
    kickAccount: {
      kickUsername: link.kickUsername,
      kickEmail: link.kickEmail,
      profilePicture: link.profilePicture,
      linkedAt: link.linkedAt.toISOString(),
    },
    needsRelink: link.status !== 'active',
  };
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** PKCE (RFC 7636, S256): a 64-character verifier and its challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

// ---------------------------------------------------------------------------------------------
// Channel → owner: the webhook's one lookup, cached in memory
// ---------------------------------------------------------------------------------------------

export interface ChannelOwners {
  /** The Kickstand user who linked this channel, or null. */
  ownerOf(broadcasterUserId: string): Promise<string | null>;
  linked(broadcasterUserId: string, userId: string): void;
  unlinked(broadcasterUserId: string): void;
  /** Loads every link (at start). */
  warm(): Promise<void>;
}

/**
 * Links change here (this process updates the cache at once) or in another kick-link instance,
 * so entries also age out: a known owner after 5 minutes, an unknown channel after 30 seconds. At most
 * `maxChannels` (100 000) channels are kept (least recently used out first); a forgotten one is read
 * from the store.
 */
export function createChannelOwners(deps: {
  repo: KickLinkRepository;
  clock: Clock;
  maxChannels?: number;
}): ChannelOwners {
  const { repo, clock, maxChannels = 100_000 } = deps;
  const positiveMs = 5 * 60 * 1000;
  const negativeMs = 30 * 1000;
  const entries = new LRUCache<string, { ownerUserId: string | null }>({
    // the bound as a size of 1 a channel, not `max`: with `max` lru-cache allocates its arrays for
    // every entry up front (~4.4 MB for 100 000, docs/performance.md "Memory", third round)
    maxSize: maxChannels,
    sizeCalculation: () => 1,
    ttl: positiveMs,
    // asks the injected clock every time (no cached "now")
    ttlResolution: 0,
    perf: { now: () => clock.now().getTime() },
  });
  const loading = new Map<string, Promise<string | null>>();

  // lru-cache keeps an entry while its age is at most ttl; ours is stale at exactly the limit
  const remember = (broadcasterUserId: string, ownerUserId: string | null) =>
    entries.set(broadcasterUserId, { ownerUserId }, { ttl: (ownerUserId ? positiveMs : negativeMs) - 1 });

  return {
    async ownerOf(broadcasterUserId) {
      const entry = entries.get(broadcasterUserId);
      if (entry) return entry.ownerUserId;
      const pending = loading.get(broadcasterUserId);
      if (pending) return pending;
      const load = repo.links
        .byKickUser(broadcasterUserId)
        .then((link) => {
          const owner = link?._id ?? null;
          remember(broadcasterUserId, owner);
          return owner;
        })
        .finally(() => loading.delete(broadcasterUserId));
      loading.set(broadcasterUserId, load);
      return load;
    },
    linked: (broadcasterUserId, userId) => remember(broadcasterUserId, userId),
    unlinked: (broadcasterUserId) => remember(broadcasterUserId, null),
    async warm() {
      for (const link of await repo.links.all()) remember(link.kickUserId, link._id);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Linking and unlinking
// ---------------------------------------------------------------------------------------------

/** A started OAuth round trip: where the browser goes, and the key it must bring back (a cookie). */
export interface OAuthStart {
  authUrl: string;
  browserKey: string;
}

export interface CallbackOutcome {
  /** Where the browser goes next. */
  location: string;
  /** The flow whose browser key was used up (its cookie can go), or null. */
  spentBrowserKey: OAuthFlow | null;
}

export interface Links {
  /**
   * The authorize URL for this user: PKCE S256, a single-use state bound to the user and to the
   * browser that holds `browserKey`.
   */
  start(userId: string, options?: { moderation?: boolean }): Promise<OAuthStart>;
  /**
   * The OAuth callback. Goes on only when the browser brings the key its state was started with;
   * otherwise (a link finished in another browser) nothing changes and the browser goes to the
   * link-error screen. Never throws.
   */
  complete(query: unknown, browserKeys: BrowserKeys): Promise<CallbackOutcome>;
  status(userId: string): Promise<KickStatus>;
  /** Revokes the tokens, removes every subscription of the channel, forgets the link. 404 without one. */
  unlink(userId: string): Promise<void>;
  unlinkIfLinked(userId: string): Promise<void>;
  /** The authorize URL for the platform's bot account, started by a super admin (same callback, same binding). */
  startBotAccount(adminUserId: string): Promise<OAuthStart>;
  botAccount(): Promise<BotAccountView | null>;
  /** Revokes the bot account's tokens and forgets it. 404 without one. */
  unlinkBotAccount(): Promise<void>;
}

export interface LinksDeps {
  repo: KickLinkRepository;
  kick: KickClient;
  cipher: () => TokenCipher;
  subscriptions: ChannelSubscriptions;
  owners: ChannelOwners;
  publisher: KickLinkPublisher;
  /** Publishes what a link's change left in its outbox (link-outbox.ts). */
  outbox: Pick<OutboxRelay<LinkDoc>, 'publishFrom'>;
  clock: Clock;
  log: Logger;
  oauthStateSeconds: number;
  botAccounts: BotAccountDirectory;
}

export function createLinks(deps: LinksDeps): Links {
  const { repo, kick, cipher, subscriptions, owners, publisher, outbox, clock, log, oauthStateSeconds, botAccounts } =
    deps;

  async function revokeQuietly(tokens: { accessToken: string; refreshToken: string }, userId: string) {
    for (const [token, hint] of [
      [tokens.accessToken, 'access_token'],
      [tokens.refreshToken, 'refresh_token'],
    ] as const) {
      try {
        await kick.revoke(token, hint);
      } catch (err) {
        log.warn({ err, userId, hint }, 'Kick did not revoke a token; the link goes anyway');
      }
    }
  }

  /** Undoes a link at Kick and here; Kick's errors are logged and never keep the link. */
  async function retire(link: LinkDoc): Promise<void> {
    try {
      await revokeQuietly(openTokens(cipher(), link), link._id);
    } catch (err) {
      log.warn({ err, userId: link._id }, 'the stored Kick tokens could not be read to revoke them');
    }
    try {
      await subscriptions.remove(link.kickUserId, () => true);
    } catch (err) {
      log.warn({ err, userId: link._id, kickUserId: link.kickUserId }, 'could not remove the channel subscriptions');
    }
    // published before the link goes: if the bus fails, the link is still there to unlink again
    await publisher.kickAccount(KickAccountChangeKind.UNLINKED, link);
    await publisher.chatSubscription({
      userId: link._id,
      broadcasterUserId: link.kickUserId,
      state: ChatSubscriptionState.INACTIVE,
    });
    await repo.links.remove(link._id);
    owners.unlinked(link.kickUserId);
    log.info({ userId: link._id, kickUserId: link.kickUserId }, 'Kick account unlinked');
  }

  async function attempt(userId: string, code: string, codeVerifier: string): Promise<LinkOutcome> {
    const tokens: KickUserTokens = await kick.exchangeCode({ code, codeVerifier });
    const missing = missingScopes(tokens.scopes);
    if (missing.length > 0) {
      log.info({ userId, missing }, 'Kick link refused: essential scopes were not granted');
      await revokeQuietly(tokens, userId);
      return { kind: 'failed' };
    }
    const kickUser = await kick.currentUser(tokens.accessToken);
    const decision = decideLink(userId, await repo.links.byKickUser(kickUser.userId), await repo.links.byUser(userId));
    if (decision.kind === 'duplicate') {
      await revokeQuietly(tokens, userId);
      return { kind: 'duplicate', kickUsername: kickUser.name };
    }
    if (decision.kind === 'replace') await retire(decision.previous);
    const now = clock.now();
    let link: LinkDoc;
    try {
      link = await repo.links.save(
        userId,
        {
          kickUserId: kickUser.userId,
          kickUsername: kickUser.name,
          kickEmail: kickUser.email,
          profilePicture: kickUser.profilePicture,
          linkedAt: decision.kind === 'relink' ? decision.current.linkedAt : now,
          ...sealTokens(cipher(), userId, tokens, now),
        },
        [{ id: randomUUID(), occurredAt: now, topic: 'kick.account', kind: 'LINKED' }],
      );
    } catch (error) {
      // another user linked the same account a moment ago: the unique index decides
      if (!(error instanceof DuplicateKeyError)) throw error;
      await revokeQuietly(tokens, userId);
      return { kind: 'duplicate', kickUsername: kickUser.name };
    }
    owners.linked(link.kickUserId, userId);
    // kick.account LINKED was written with the link: published now, or by a later flush if the bus fails
    await outbox.publishFrom(link);
    log.info({ userId, kickUserId: link.kickUserId, kind: decision.kind }, 'Kick account linked');
    return { kind: 'linked' };
  }

  /**
   * The bot account: whoever authorized is it (a new one replaces the old, whose tokens are revoked).
   * Without chat:write it cannot speak, so it is refused.
   */
  async function attemptBotAccount(adminUserId: string, code: string, codeVerifier: string): Promise<string> {
    const tokens: KickUserTokens = await kick.exchangeCode({ code, codeVerifier });
    if (missingScopes(tokens.scopes).length > 0) {
      log.info({ adminUserId }, 'bot account link refused: chat:write was not granted');
      await revokeQuietly(tokens, botAccountId);
      return botAccountLocation('missing-scope');
    }
    const kickUser = await kick.currentUser(tokens.accessToken);
    const previous = await repo.botAccount.get();
    const now = clock.now();
    await repo.botAccount.save({
      kickUserId: kickUser.userId,
      kickUsername: kickUser.name,
      kickEmail: kickUser.email,
      profilePicture: kickUser.profilePicture,
      linkedAt: now,
      ...sealTokens(cipher(), botAccountId, tokens, now),
    });
    botAccounts.changed();
    if (previous) {
      try {
        await revokeQuietly(openTokens(cipher(), previous), botAccountId);
      } catch (err) {
        log.warn({ err }, 'the previous bot account tokens could not be read to revoke them');
      }
    }
    log.info({ adminUserId, kickUserId: kickUser.userId, kickUsername: kickUser.name }, 'bot account linked');
    return botAccountLocation('linked');
  }

  async function completeBotAccount(adminUserId: string, code: string, codeVerifier: string): Promise<string> {
    try {
      return await attemptBotAccount(adminUserId, code, codeVerifier);
    } catch (err) {
      log.warn({ err, adminUserId }, 'bot account link failed');
      return botAccountLocation('failed');
    }
  }

  async function insertState(userId: string, flow: OAuthFlow, scopes: readonly string[]): Promise<OAuthStart> {
    const state = randomBytes(32).toString('base64url');
    const { verifier, challenge } = pkcePair();
    const browserKey = newBrowserKey();
    await repo.oauthStates.insert({
      _id: sha256Hex(state),
      userId,
      flow,
      codeVerifier: verifier,
      browserKeyHash: browserKeyHash(browserKey),
      createdAt: clock.now(),
    });
    return { authUrl: kick.authorizeUrl({ state, codeChallenge: challenge, scopes }), browserKey };
  }

  async function unlinkIfLinked(userId: string): Promise<void> {
    const link = await repo.links.byUser(userId);
    if (link) await retire(link);
  }

  return {
    start: async (userId, options = {}) => {
      // moderation is asked only when a filter needs it, and kept on every later link once granted
      const current = await repo.links.byUser(userId);
      const hasModeration = moderationScopes.every((scope) => current?.scopes.includes(scope) === true);
      return insertState(userId, 'streamer', linkScopesFor(options.moderation === true || hasModeration));
    },

    async complete(rawQuery, browserKeys) {
      const failed = { location: dashboardLocation({ kind: 'failed' }), spentBrowserKey: null };
      try {
        const query = oauthCallbackQuerySchema.safeParse(rawQuery);
        if (!query.success) return failed;
        const { code, state, error } = query.data;
        // a state is spent by its first use, whatever came with it (a denial, another browser included)
        const claimed = state ? await repo.oauthStates.consume(sha256Hex(state), clock.now(), oauthStateSeconds) : null;
        if (!claimed) {
          log.info(
            { hasCode: Boolean(code), hasState: Boolean(state), error },
            'Kick link refused: missing, used or expired state',
          );
          return failed;
        }
        const flow = claimed.flow ?? 'streamer';
        if (!isSameBrowser(claimed.browserKeyHash, browserKeys(flow))) {
          // The link was started in another browser (link CSRF, or a lost cookie): whoever is here is
          // not known to be the user who started it, so the general link-error screen, whatever the flow.
          log.warn(
            { userId: claimed.userId, flow },
            'Kick link refused: finished in another browser than it was started in',
          );
          return failed;
        }
        const spentBrowserKey = flow;
        if (flow === 'bot-account') {
          if (error || !code) {
            log.info({ error, adminUserId: claimed.userId }, 'bot account link not completed');
            return { location: botAccountLocation('failed'), spentBrowserKey };
          }
          return { location: await completeBotAccount(claimed.userId, code, claimed.codeVerifier), spentBrowserKey };
        }
        if (error || !code) {
          log.info(
            { error, userId: claimed.userId },
            'Kick link not completed: Kick answered with an error or without a code',
          );
          // OAuth's access_denied is the streamer's own choice on the consent page
          const outcome: LinkOutcome = error === 'access_denied' ? { kind: 'denied' } : { kind: 'failed' };
          return { location: dashboardLocation(outcome), spentBrowserKey };
        }
        return {
          location: dashboardLocation(await attempt(claimed.userId, code, claimed.codeVerifier)),
          spentBrowserKey,
        };
      } catch (err) {
        log.warn({ err }, 'Kick link failed');
        return failed;
      }
    },

    status: async (userId) => statusOf(await repo.links.byUser(userId)),

    async unlink(userId) {
      const link = await repo.links.byUser(userId);
      if (!link) throw notFound(noLinkMessage);
      await retire(link);
    },

    unlinkIfLinked,

    startBotAccount: (adminUserId) => insertState(adminUserId, 'bot-account', botAccountScopes),

    async botAccount() {
      const doc = await repo.botAccount.get();
      return (
        doc && {
          kickUserId: doc.kickUserId,
          kickUsername: doc.kickUsername,
          linkedAt: doc.linkedAt.toISOString(),
          needsRelink: doc.status !== 'active',
        }
      );
    },

    async unlinkBotAccount() {
      const doc = await repo.botAccount.get();
      if (!doc) throw notFound(noBotAccountMessage);
      try {
        await revokeQuietly(openTokens(cipher(), doc), botAccountId);
      } catch (err) {
        log.warn({ err }, 'the bot account tokens could not be read to revoke them');
      }
      await repo.botAccount.remove();
      botAccounts.changed();
      log.info({ kickUserId: doc.kickUserId }, 'bot account unlinked');
    },
  };
}
