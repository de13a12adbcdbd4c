import type { Clock } from '@kickstand/platform/clock';
import type { Filter } from '@kickstand/platform/store';
import { hashSecret, newOpaqueSecret } from '../ids';
import type { ResolvedOptions } from '../options';
import type { PendingAuthorizationDoc, Repository, TokenDoc, TokenKind, TokenType } from '../repository';
import { addSeconds } from '../time';
import { invalidGrant } from './oauth-errors';
import { codeVerifierPattern, s256Challenge } from './pkce';

/** What an authorization code remembers of the request that produced it. */
export type CodeGrant = Pick<PendingAuthorizationDoc, 'clientId' | 'redirectUri' | 'codeChallenge'>;

export interface UserTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  scopes: string[];
}

export interface AppToken {
  accessToken: string;
  expiresIn: number;
}

/** Who a valid access token acts for. */
export interface TokenContext {
  tokenType: TokenType;
  clientId: string;
  /** Set for user tokens. */
  userId: number | null;
  scopes: readonly string[];
}

export interface Introspection {
  active: true;
  client_id: string;
  token_type: TokenType;
  scope: string;
  exp: number;
}

/** Picks tokens for the control API: by value, by id (the hash the listing shows), by owner, by kind. */
export interface TokenSelector {
  token?: string;
  id?: string;
  userId?: number;
  kind?: TokenKind;
}

export interface TokenView {
  id: string;
  kind: TokenKind;
  tokenType: TokenType;
  userId: number | null;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  isActive: boolean;
}

export interface Tokens {
  issueCode(grant: CodeGrant, userId: number, scopes: readonly string[]): Promise<string>;
  redeemCode(request: {
    clientId: string;
    code: string;
    redirectUri: string;
    codeVerifier: string;
  }): Promise<UserTokens>;
  refresh(request: { clientId: string; refreshToken: string }): Promise<UserTokens>;
  issueAppToken(clientId: string): Promise<AppToken>;
  revoke(token: string, hint: TokenKind | undefined): Promise<void>;
  /** The token's introspection, or null when it is not an active access token. */
  introspect(accessToken: string): Promise<Introspection | null>;
  authenticate(accessToken: string): Promise<TokenContext | null>;
  list(selector: TokenSelector): Promise<TokenView[]>;
  /** Makes the selected tokens expire now; returns how many. */
  expire(selector: TokenSelector): Promise<number>;
  /** Revokes the selected tokens (an invalidated refresh token gets invalid_grant); returns how many. */
  invalidate(selector: TokenSelector): Promise<number>;
}

export function createTokens({
  repo,
  clock,
  lifetimes,
}: {
  repo: Repository;
  clock: Clock;
  lifetimes: ResolvedOptions['tokens'];
}): Tokens {
  async function store(
    kind: TokenKind,
    fields: Pick<TokenDoc, 'tokenType' | 'clientId' | 'userId' | 'scopes' | 'grantId'>,
    seconds: number,
  ): Promise<string> {
    const token = newOpaqueSecret();
    const now = clock.now();
    await repo.tokens.insertOne({
      _id: hashSecret(token),
      kind,
      ...fields,
      createdAt: now,
      expiresAt: addSeconds(now, seconds),
      revokedAt: null,
      rotatedAt: null,
    });
    return token;
  }

  async function issueUserTokens(grant: Pick<TokenDoc, 'clientId' | 'userId' | 'scopes' | 'grantId'>) {
    const { clientId, userId, scopes, grantId } = grant;
    const fields = { clientId, userId, scopes, grantId, tokenType: 'user' as const };
    return {
      accessToken: await store('access', fields, lifetimes.userAccessSeconds),
      refreshToken: await store('refresh', fields, lifetimes.refreshSeconds),
      expiresIn: lifetimes.userAccessSeconds,
      refreshExpiresIn: lifetimes.refreshSeconds,
      scopes: [...grant.scopes],
    };
  }

  const isLive = (doc: TokenDoc, now: Date) => doc.revokedAt === null && doc.expiresAt.getTime() > now.getTime();

  function selectorFilter(selector: TokenSelector): Filter {
    const filter: Filter = {};
    if (selector.token !== undefined) filter._id = hashSecret(selector.token);
    if (selector.id !== undefined) filter._id = selector.id;
    if (selector.userId !== undefined) filter.userId = selector.userId;
    if (selector.kind !== undefined) filter.kind = selector.kind;
    return filter;
  }

  const revokeGrant = (grantId: string) =>
    repo.tokens.updateMany({ grantId, revokedAt: null }, { $set: { revokedAt: clock.now() } });

  return {
    async issueCode(pending, userId, scopes) {
      const code = newOpaqueSecret();
      const now = clock.now();
      await repo.authorizationCodes.insertOne({
        _id: hashSecret(code),
        clientId: pending.clientId,
        redirectUri: pending.redirectUri,
        scopes: [...scopes],
        userId,
        codeChallenge: pending.codeChallenge,
        createdAt: now,
        expiresAt: addSeconds(now, lifetimes.authorizationCodeSeconds),
        usedAt: null,
      });
      return code;
    },

    async redeemCode({ clientId, code, redirectUri, codeVerifier }) {
      const now = clock.now();
      const codeId = hashSecret(code);
      // Claimed before any check: a code is spent by its first redemption attempt, right or wrong.
      const claimed = await repo.authorizationCodes.findOneAndUpdate(
        { _id: codeId, usedAt: null },
        { $set: { usedAt: now } },
      );
      if (!claimed) {
        // A replayed code may be stolen: as RFC 6749 §4.1.2 advises, what it issued is revoked too.
        const spent = await repo.authorizationCodes.findOne({ _id: codeId });
        if (spent) await revokeGrant(spent._id);
        throw invalidGrant(spent ? 'The authorization code has already been used.' : undefined);
      }
      if (claimed.expiresAt.getTime() <= now.getTime()) throw invalidGrant('The authorization code has expired.');
      if (claimed.clientId !== clientId) throw invalidGrant('The authorization code was issued to another client.');
      if (claimed.redirectUri !== redirectUri) {
        throw invalidGrant('The "redirect_uri" parameter does not match the authorization request.');
      }
      if (!codeVerifierPattern.test(codeVerifier)) {
        throw invalidGrant('The PKCE code verifier must be 43 to 128 unreserved characters.');
      }
      if (s256Challenge(codeVerifier) !== claimed.codeChallenge) {
        throw invalidGrant('The PKCE code challenge did not match the code verifier.');
      }
      // the grant is named after the code, so a later replay of the code finds what it issued
      return issueUserTokens({ clientId, userId: claimed.userId, scopes: claimed.scopes, grantId: claimed._id });
    },

    async refresh({ clientId, refreshToken }) {
      const now = clock.now();
      const doc = await repo.tokens.findOne({ _id: hashSecret(refreshToken), kind: 'refresh' });
      if (!doc || !isLive(doc, now) || doc.clientId !== clientId) throw invalidGrant();
      if (doc.rotatedAt && now.getTime() > doc.rotatedAt.getTime() + lifetimes.refreshGraceSeconds * 1000) {
        throw invalidGrant('The refresh token has already been used.');
      }
      // The first exchange starts the grace period; a retry within it does not extend it.
      await repo.tokens.updateOne({ _id: doc._id, rotatedAt: null }, { $set: { rotatedAt: now } });
      return issueUserTokens(doc);
    },

    async issueAppToken(clientId) {
      const accessToken = await store(
        'access',
        { tokenType: 'app', clientId, userId: null, scopes: [], grantId: newOpaqueSecret(16) },
        lifetimes.appAccessSeconds,
      );
      return { accessToken, expiresIn: lifetimes.appAccessSeconds };
    },

    async revoke(token, hint) {
      const doc = await repo.tokens.findOne({ _id: hashSecret(token) });
      // RFC 7009: an unknown token (or a hint that does not fit) is not an error
      if (!doc || doc.revokedAt) return;
      if (doc.kind === 'refresh' && hint !== 'access') {
        await revokeGrant(doc.grantId);
        return;
      }
      await repo.tokens.updateOne({ _id: doc._id }, { $set: { revokedAt: clock.now() } });
    },

    async introspect(accessToken) {
      const doc = await repo.tokens.findOne({ _id: hashSecret(accessToken), kind: 'access' });
      if (!doc || !isLive(doc, clock.now())) return null;
      return {
        active: true,
        client_id: doc.clientId,
        token_type: doc.tokenType,
        scope: doc.scopes.join(' '),
        exp: Math.floor(doc.expiresAt.getTime() / 1000),
      };
    },

    async authenticate(accessToken) {
      const doc = await repo.tokens.findOne({ _id: hashSecret(accessToken), kind: 'access' });
      if (!doc || !isLive(doc, clock.now())) return null;
      return { tokenType: doc.tokenType, clientId: doc.clientId, userId: doc.userId, scopes: doc.scopes };
    },

    async list(selector) {
      const now = clock.now();
      const docs = await repo.tokens.find(selectorFilter(selector), { sort: { createdAt: 1 } });
      return docs.map((doc) => ({
        id: doc._id,
        kind: doc.kind,
        tokenType: doc.tokenType,
        userId: doc.userId,
        scopes: doc.scopes,
        createdAt: doc.createdAt,
        expiresAt: doc.expiresAt,
        rotatedAt: doc.rotatedAt,
        revokedAt: doc.revokedAt,
        isActive: isLive(doc, now),
      }));
    },

    async expire(selector) {
      const now = clock.now();
      const result = await repo.tokens.updateMany(
        { ...selectorFilter(selector), expiresAt: { $gt: now } },
        { $set: { expiresAt: now } },
      );
      return result.matchedCount;
    },

    async invalidate(selector) {
      const result = await repo.tokens.updateMany(
        { ...selectorFilter(selector), revokedAt: null },
        { $set: { revokedAt: clock.now() } },
      );
      return result.matchedCount;
    },
  };
}
