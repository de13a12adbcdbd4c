import type { Request, RequestHandler } from 'express';
import { forbidden, unauthorized } from '../errors';
import { resolveActingFor } from './team-access';
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
 * other way is refused just the same. A request acting for another channel (team access,
 * `X-Kickstand-Channel`) is checked here too: see resolveActingFor.
 */
export function requireUser(verifier: TokenVerifier): RequestHandler {
  return (req, res, next) => {
    const caller = verifier.verify(bearerToken(req.headers.authorization));
    req.identity = resolveActingFor(verifier.team, caller, req, res);
    next();
  };
}

export function requireAdmin(verifier: TokenVerifier): RequestHandler {
  return (req, res, next) => {
    const identity = verifier.verify(bearerToken(req.headers.authorization));
    if (identity.role !== 'SUPER_ADMIN') throw forbidden(adminRequiredMessage);
    // no admin route is an editor's: acting for another channel here is refused with 403
    req.identity = resolveActingFor(verifier.team, identity, req, res);
    next();
  };
}

/** The caller, inside a route guarded by requireUser or requireAdmin. */
export function currentUser(req: Request): Identity {
  if (!req.identity) throw unauthorized('Authentication required');
  return req.identity;
}
