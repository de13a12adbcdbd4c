import type { ErrorRequestHandler } from 'express';
import type { Logger } from '@kickstand/platform/log';
import { clientErrorStatus } from '../client-errors';

export interface OAuthErrorBody {
  error: string;
  error_description?: string;
}

/** An error answered in the identity host's own shape (kick-api.md §2.8), not Kick's REST envelope. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly body: OAuthErrorBody,
  ) {
    super(body.error_description ?? body.error);
    this.name = 'OAuthError';
  }
}

/** The documented shape for a malformed request (authorize, token, revoke). */
export const invalidRequest = (): OAuthError => new OAuthError(400, { error: 'Invalid request' });

// The live server's texts (kick-api.md §2.8 quotes the start of this one).
const invalidGrantText =
  'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';

export const invalidGrant = (hint?: string): OAuthError =>
  new OAuthError(400, {
    error: 'invalid_grant',
    error_description: hint ? `${invalidGrantText} ${hint}` : invalidGrantText,
  });

export const invalidClient = (): OAuthError =>
  new OAuthError(401, {
    error: 'invalid_client',
    error_description:
      'Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method).',
  });

/** Answers the identity host's errors; a body the parser could not read is the client's malformed request. */
export function oauthErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof OAuthError) {
      res.status(error.status).json(error.body);
      return;
    }
    const clientStatus = clientErrorStatus(error);
    if (clientStatus !== undefined) {
      res.status(clientStatus === 413 ? 413 : 400).json(invalidRequest().body);
      return;
    }
    log.error({ err: error }, 'oauth request failed');
    res.status(500).json({ error: 'server_error' });
  };
}
