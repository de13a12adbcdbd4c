import type { Request, RequestHandler } from 'express';
import type { Tokens, TokenContext } from '../oauth/tokens';
import type { KickScope } from '../oauth/scopes';
import { bearerOf } from './bearer';
import { callerOf, rememberCaller } from './call-recorder';
import { kickForbidden, kickUnauthorized } from './kick-errors';

/** Bearer check for every REST endpoint: 401 in Kick's shape for a missing, unknown or expired token. */
export function authenticate(tokens: Tokens): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerOf(req);
    const context = token ? await tokens.authenticate(token) : null;
    if (!context) throw kickUnauthorized();
    rememberCaller(req, context);
    next();
  };
}

export function callerOrThrow(req: Request): TokenContext {
  const context = callerOf(req);
  if (!context) throw kickUnauthorized();
  return context;
}

export type UserCaller = TokenContext & { tokenType: 'user'; userId: number };

const isUserCaller = (context: TokenContext): context is UserCaller =>
  context.tokenType === 'user' && context.userId !== null;

/**
 * Endpoints that act for a user (chat, bans, channel edits): an app token is the wrong kind of
 * token, which Kick answers with 401 (kick-api.md §5.1); a user token without the scope gets 403.
 */
export function userCaller(req: Request, scope: KickScope): UserCaller {
  const context = callerOrThrow(req);
  if (!isUserCaller(context)) throw kickUnauthorized();
  if (!context.scopes.includes(scope)) throw kickForbidden();
  return context;
}

/** Endpoints open to app tokens; a user token needs the scope (§2.9). */
export function appOrUserCaller(req: Request, scope: KickScope): TokenContext {
  const context = callerOrThrow(req);
  if (context.tokenType === 'user' && !context.scopes.includes(scope)) throw kickForbidden();
  return context;
}

export const asUserCaller = (context: TokenContext): UserCaller | null => (isUserCaller(context) ? context : null);
