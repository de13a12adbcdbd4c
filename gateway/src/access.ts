import type { Request } from 'express';
import { adminRequiredMessage, bearerToken, type TokenVerifier } from '@kickstand/platform/auth';
import { forbidden, unauthorized } from '@kickstand/platform/errors';
import type { DeactivatedUsers } from './deactivated-users';
import type { Route } from './route-table';

export const deactivatedMessage = 'Your account has been deactivated';

/**
 * The gateway's check before proxying: a valid sign-in token for every non-public row, not a
 * deactivated account, and the SUPER_ADMIN role for admin rows. Services check the token again
 * themselves; the deactivated list is only known here.
 */
export function createAccessGuard(deps: { tokens: TokenVerifier; deactivatedUsers: DeactivatedUsers }) {
  return (route: Route, req: Request): void => {
    if (route.access === 'public') return;
    const identity = deps.tokens.verify(bearerToken(req.headers.authorization));
    // 401 rather than 403: the web app then drops the stored token and shows the sign-in again.
    if (deps.deactivatedUsers.isDeactivated(identity.userId)) throw unauthorized(deactivatedMessage);
    if (route.access === 'admin' && identity.role !== 'SUPER_ADMIN') throw forbidden(adminRequiredMessage);
  };
}
