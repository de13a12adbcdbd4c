import jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { Clock } from '../clock';
import { unauthorized } from '../errors';
import type { TeamGate } from './team-access';
import type { UserAccess } from './user-access';

export const roles = ['USER', 'SUPER_ADMIN'] as const;
export type Role = (typeof roles)[number];

/** Who is calling: what a verified token says. */
export interface Identity {
  userId: string;
  username: string;
  role: Role;
}

const issuer = 'kickstand-auth';
const audience = 'kickstand';
// Only RS256: a token that names another algorithm (`none`, HS256 with the public key as secret) is refused.
const algorithms: jwt.Algorithm[] = ['RS256'];

const claimsSchema = z.object({
  sub: z.string().min(1),
  username: z.string().min(1),
  role: z.enum(roles),
  ver: z.number().int().nonnegative().optional(),
});

export interface TokenVerifier {
  /** The identity in a valid token; throws a 401 AppError for a missing, malformed, expired or forged one. */
  verify(token: string | undefined): Identity;
  /** Team access (who may act for which channel), when wired; without it nobody acts for another channel. */
  readonly team?: TeamGate;
}

export interface TokenSigner {
  /** `tokenVersion`: the user's current version (see UserAccess); 0 by default. */
  sign(identity: Identity, tokenVersion?: number): string;
}

/**
 * Checks the signature, issuer, audience and expiry with auth's public key, then (when given) asks
 * the user-access read model whether the user may still use a token of this version and role.
 */
export function createTokenVerifier(
  publicKeyPem: string,
  clock?: Clock,
  access?: Pick<UserAccess, 'check'>,
  team?: TeamGate,
): TokenVerifier {
  return {
    ...(team ? { team } : {}),
    verify(token) {
      if (!token) throw unauthorized('Authentication required');
      let payload: unknown;
      try {
        payload = jwt.verify(token, publicKeyPem, {
          algorithms,
          issuer,
          audience,
          clockTimestamp: clock ? Math.floor(clock.now().getTime() / 1000) : undefined,
        });
      } catch {
        throw unauthorized('Invalid or expired token');
      }
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success) throw unauthorized('Invalid or expired token');
      const identity: Identity = { userId: claims.data.sub, username: claims.data.username, role: claims.data.role };
      access?.check({ identity, tokenVersion: claims.data.ver ?? 0 });
      return identity;
    },
  };
}

export function createTokenSigner(
  privateKeyPem: string,
  options: { expiresInSeconds: number; clock?: Clock },
): TokenSigner {
  return {
    sign(identity, tokenVersion = 0) {
      const issuedAt = Math.floor((options.clock?.now().getTime() ?? Date.now()) / 1000);
      return jwt.sign(
        {
          username: identity.username,
          role: identity.role,
          ver: tokenVersion,
          iat: issuedAt,
          exp: issuedAt + options.expiresInSeconds,
        },
        privateKeyPem,
        { algorithm: 'RS256', subject: identity.userId, issuer, audience },
      );
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}
