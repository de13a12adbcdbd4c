import type { Request } from 'express';
import { adminRequiredMessage, bearerToken, type TokenVerifier } from '@kickstand/platform/auth';
import { forbidden } from '@kickstand/platform/errors';
import type { Route } from './route-table';

/**
 * The gateway's check before proxying: a valid sign-in token for every non-public row (the
 * platform's check, which also refuses deactivated users and revoked tokens with 401), and the
 * SUPER_ADMIN role for admin rows. Services check the token again themselves, the same way.
 */
export function createAccessGuard(deps: { tokens: TokenVerifier }) {
  return (route: Route, req: Request): void => {
    if (route.access === 'public') return;
    const identity = deps.tokens.verify(bearerToken(req.headers.authorization));
    if (route.access === 'admin' && identity.role !== 'SUPER_ADMIN') throw forbidden(adminRequiredMessage);
  };
}
