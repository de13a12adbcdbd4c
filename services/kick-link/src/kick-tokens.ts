import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { KickApiError, type KickClient, type KickUserTokens } from './kick-client';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import type { KickLinkRepository, LinkDoc, LinkMessage, TokenHolders } from './repository';
import type { TokenCipher } from './token-crypto';

/** The user has no Kick link (any more). */
export class NotLinkedError extends Error {
  constructor() {
    super('No Kick account is linked');
    this.name = 'NotLinkedError';
  }
}

/** Kick refused the refresh token: the user has to link again. */
export class NeedsRelinkError extends Error {
  constructor() {
    super('Your Kick account needs to be linked again');
    this.name = 'NeedsRelinkError';
  }
}

export const needsRelinkMessage = 'Your Kick account needs to be linked again';

/** What a streamer's link that needs a new authorization owes (its outbox): the account's state and the chat subscription's. */
export const needsRelinkMessages = (now: Date): LinkMessage[] => [
  { id: randomUUID(), occurredAt: now, topic: 'kick.account', kind: 'NEEDS_RELINK' },
  { id: randomUUID(), occurredAt: now, topic: 'chat.subscription', state: 'FAILED', error: needsRelinkMessage },
];
export const notLinkedMessage = 'No Kick account is linked';

// ---------------------------------------------------------------------------------------------
// Sealing: tokens at rest are encrypted, bound to their user and kind
// ---------------------------------------------------------------------------------------------

export interface PlainTokens {
  accessToken: string;
  refreshToken: string;
}

export function sealTokens(
  cipher: TokenCipher,
  userId: string,
  tokens: KickUserTokens,
  now: Date,
): Pick<LinkDoc, 'accessToken' | 'refreshToken' | 'accessExpiresAt' | 'scopes' | 'tokensUpdatedAt'> {
  return {
    accessToken: cipher.encrypt(tokens.accessToken, `${userId}:access`),
    refreshToken: cipher.encrypt(tokens.refreshToken, `${userId}:refresh`),
    accessExpiresAt: new Date(now.getTime() + tokens.expiresInSeconds * 1000),
    scopes: tokens.scopes,
    tokensUpdatedAt: now,
  };
}

export function openTokens(cipher: TokenCipher, link: LinkDoc): PlainTokens {
  return {
    accessToken: openAccessToken(cipher, link),
    refreshToken: openRefreshToken(cipher, link),
  };
}

export const openAccessToken = (cipher: TokenCipher, link: LinkDoc): string =>
  cipher.decrypt(link.accessToken, `${link._id}:access`);

export const openRefreshToken = (cipher: TokenCipher, link: LinkDoc): string =>
  cipher.decrypt(link.refreshToken, `${link._id}:refresh`);

/** Access tokens decrypted and kept per holder; see createOpenedAccessTokens. */
export interface OpenedAccessTokens {
  of(link: LinkDoc): string;
}

/**
 * Every reply needs its sender's access token, and decrypting it (AES-256-GCM: OpenSSL's cipher
 * set-up above all) cost as much of the owner thread as the POST to Kick itself. So the token is
 * decrypted once per seal and kept, per holder, with the sealed value it came from: a refresh or a
 * relink seals anew (a fresh random IV), the sealed value no longer matches, and the new one is
 * decrypted. Kept in memory only, where the key that opens every seal is anyway; bounded.
 */
export function createOpenedAccessTokens(cipher: () => TokenCipher, max = 10_000): OpenedAccessTokens {
  const opened = new LRUCache<string, { sealed: string; token: string }>({ max });
  return {
    of(link) {
      const kept = opened.get(link._id);
      if (kept?.sealed === link.accessToken) return kept.token;
      const token = openAccessToken(cipher(), link);
      opened.set(link._id, { sealed: link.accessToken, token });
      return token;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// User tokens: refreshed ahead of expiry and once after a 401, one refresh per link at a time
// ---------------------------------------------------------------------------------------------

export interface UserTokens {
  /**
   * Runs a Kick call with the user's access token: refreshed first when it expires within the
   * refresh margin, and refreshed once more (then the call repeated) when Kick answers 401. Throws
   * NotLinkedError or NeedsRelinkError when there is nothing usable. `read`: the user's document as
   * the caller has just read it (a reply reads the link to find its channel), used instead of
   * reading it again; a refresh still reads the stored one.
   */
  withUserToken<T>(
    userId: string,
    call: (accessToken: string, link: LinkDoc) => Promise<T>,
    read?: LinkDoc,
  ): Promise<T>;
}

export interface UserTokensDeps {
  repo: KickLinkRepository;
  kick: KickClient;
  cipher: () => TokenCipher;
  clock: Clock;
  log: Logger;
  refreshAheadSeconds: number;
  /** Whose tokens: the streamers' links (default), or the platform's bot account. */
  holders?: TokenHolders;
  /** Called once, by whoever moved the link to needs-relink. */
  onNeedsRelink(link: LinkDoc): Promise<void>;
}

export function createUserTokens(deps: UserTokensDeps): UserTokens {
  const { repo, kick, cipher, clock, log, refreshAheadSeconds } = deps;
  const holders: TokenHolders = deps.holders ?? {
    byId: (id) => repo.links.byUser(id),
    saveTokens: (id, version, tokens) => repo.links.saveTokens(id, version, tokens),
    markNeedsRelink: (id, version) => repo.links.markNeedsRelink(id, version, needsRelinkMessages(clock.now())),
  };
  // one refresh per link at a time in this process; the version guard covers other processes
  const lock = createKeyedQueue();
  const accessTokens = createOpenedAccessTokens(cipher);

  const isDue = (link: LinkDoc) => link.accessExpiresAt.getTime() - clock.now().getTime() < refreshAheadSeconds * 1000;

  function usable(link: LinkDoc | null): LinkDoc {
    if (!link) throw new NotLinkedError();
    if (link.status !== 'active') throw new NeedsRelinkError();
    return link;
  }

  /**
   * Refreshes unless someone did while we waited: without `staleAccessToken` when the token is
   * (still) due; with it, when the stored token is still the one Kick refused.
   */
  function refresh(userId: string, staleAccessToken?: string): Promise<LinkDoc> {
    return lock.run(userId, async () => {
      const link = usable(await holders.byId(userId));
      const isNeeded = staleAccessToken === undefined ? isDue(link) : accessTokens.of(link) === staleAccessToken;
      if (!isNeeded) return link;
      let fresh: KickUserTokens;
      try {
        fresh = await kick.refresh(openRefreshToken(cipher(), link));
      } catch (error) {
        // kick-api.md §2.8: any 400/401 from the token endpoint on refresh means "authorize again"
        if (error instanceof KickApiError && (error.status === 400 || error.status === 401)) {
          return giveUp(link, error);
        }
        throw error;
      }
      const saved = await holders.saveTokens(userId, link.version, sealTokens(cipher(), userId, fresh, clock.now()));
      // another process wrote first (its refresh, a relink, an unlink): theirs is the newer state
      return saved ?? usable(await holders.byId(userId));
    });
  }

  async function giveUp(link: LinkDoc, error: KickApiError): Promise<LinkDoc> {
    const marked = await holders.markNeedsRelink(link._id, link.version);
    if (marked) {
      log.info(
        { userId: link._id, kickUserId: link.kickUserId, status: error.status, reason: error.reason },
        'Kick refused the refresh token: the link needs a new authorization',
      );
      await deps.onNeedsRelink(marked);
      throw new NeedsRelinkError();
    }
    // the version moved on: another process refreshed (our refresh token was the old one) or relinked
    return usable(await holders.byId(link._id));
  }

  return {
    async withUserToken(userId, call, read) {
      let link = usable(read ?? (await holders.byId(userId)));
      if (isDue(link)) link = await refresh(userId);
      const accessToken = accessTokens.of(link);
      try {
        return await call(accessToken, link);
      } catch (error) {
        if (!(error instanceof KickApiError) || error.status !== 401) throw error;
        // a 401 means the request was refused before anything happened: safe to try once more
        const refreshed = await refresh(userId, accessToken);
        return call(accessTokens.of(refreshed), refreshed);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The app token (client credentials): cached until near expiry, for subscriptions and the public key
// ---------------------------------------------------------------------------------------------

export interface AppTokens {
  /** Runs the call with the app token; on a 401 gets a new token and runs it once more. */
  withAppToken<T>(call: (token: string) => Promise<T>): Promise<T>;
}

const appTokenMarginMs = 10 * 60 * 1000;

export function createAppTokens(deps: { kick: KickClient; clock: Clock }): AppTokens {
  const { kick, clock } = deps;
  let cached: { token: string; expiresAtMs: number } | undefined;
  let pending: Promise<string> | undefined;

  function current(): Promise<string> {
    const now = clock.now().getTime();
    if (cached && cached.expiresAtMs - now > appTokenMarginMs) return Promise.resolve(cached.token);
    // concurrent callers share one request
    pending ??= kick
      .appToken()
      .then((issued) => {
        cached = { token: issued.accessToken, expiresAtMs: clock.now().getTime() + issued.expiresInSeconds * 1000 };
        return issued.accessToken;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  return {
    async withAppToken(call) {
      const token = await current();
      try {
        return await call(token);
      } catch (error) {
        if (!(error instanceof KickApiError) || error.status !== 401) throw error;
        if (cached?.token === token) cached = undefined;
        return call(await current());
      }
    },
  };
}
