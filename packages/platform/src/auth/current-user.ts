import type { Request, RequestHandler } from 'express';
import { forbidden, unauthorized } from '../errors';
import { bearerToken, type Identity, type TokenVerifier } from './tokens';

declare module 'http' {
  interface IncomingMessage {
    /** Set by requireUser once the bearer token is verified. */
    identity?: Identity;
  }
}

export const adminRequiredMessage = 'Administrator access required';

/**
 * Verifies the bearer token on every request it guards. Services check the token themselves (with
 * auth's public key) rather than trusting the gateway, so a request that reaches a service some
 * other way is refused just the same.
 */
export function requireUser(verifier: TokenVerifier): RequestHandler {
  return (req, _res, next) => {
    req.identity = verifier.verify(bearerToken(req.headers.authorization));
    next();
  };
}

export function requireAdmin(verifier: TokenVerifier): RequestHandler {
  return (req, _res, next) => {
    const identity = verifier.verify(bearerToken(req.headers.authorization));
    if (identity.role !== 'SUPER_ADMIN') throw forbidden(adminRequiredMessage);
    req.identity = identity;
    next();
  };
}

/** The caller, inside a route guarded by requireUser or requireAdmin. */
export function currentUser(req: Request): Identity {
  if (!req.identity) throw unauthorized('Authentication required');
  return req.identity;
}
