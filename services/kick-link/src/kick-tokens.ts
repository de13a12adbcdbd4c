import { randomUUID } from 'node:crypto';
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
    accessToken: cipher.decrypt(link.accessToken, `${link._id}:access`),
    refreshToken: cipher.decrypt(link.refreshToken, `${link._id}:refresh`),
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
      const current = openTokens(cipher(), link);
      const isNeeded = staleAccessToken === undefined ? isDue(link) : current.accessToken === staleAccessToken;
      if (!isNeeded) return link;
      let fresh: KickUserTokens;
      try {
        fresh = await kick.refresh(current.refreshToken);
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
      const { accessToken } = openTokens(cipher(), link);
      try {
        return await call(accessToken, link);
      } catch (error) {
        if (!(error instanceof KickApiError) || error.status !== 401) throw error;
        // a 401 means the request was refused before anything happened: safe to try once more
        const refreshed = await refresh(userId, accessToken);
        return call(openTokens(cipher(), refreshed).accessToken, refreshed);
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
