import { env } from '../../config/env';

/**
 * Asks auth to refuse this token everywhere from now on (POST /api/platform/logout), so a copy of
 * it left in another tab or in someone else's hands stops working too. Fire and forget: the app
 * signs out locally whatever the answer, as the spec's logout does; keepalive lets the request
 * finish even when the page is being left.
 */
export function revokeToken(token: string): void {
  fetch(`${env.apiBaseUrl}/platform/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    credentials: 'include',
    keepalive: true,
  }).catch(() => undefined);
}
