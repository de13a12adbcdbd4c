import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Logger } from '@kickstand/platform/log';
import { bearerOf } from '../api/bearer';
import { kickUnauthorized } from '../api/kick-errors';
import type { App } from '../app-settings';
import type { KickUsers } from '../kick-users';
import { sendAuthorizePage, sendAuthorizeProblem } from '../pages/authorize-page';
import { decisionFormSchema, type Authorizations } from './authorize';
import { invalidClient, invalidRequest, oauthErrorHandler } from './oauth-errors';
import type { Tokens, UserTokens } from './tokens';

const one = z.string().min(1).max(4096);
const client = { client_id: one, client_secret: one };

// Kick's token endpoint takes form fields only; a field given twice arrives as an array and fails.
const tokenFormSchema = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('authorization_code'),
    ...client,
    code: one,
    redirect_uri: one,
    code_verifier: one,
  }),
  z.object({ grant_type: z.literal('refresh_token'), ...client, refresh_token: one }),
  z.object({ grant_type: z.literal('client_credentials'), ...client }),
]);

const revokeQuerySchema = z.object({
  token: one,
  // kick-api.md spells it token_hint_type; RFC 7009 says token_type_hint: both are accepted
  token_hint_type: z.enum(['access_token', 'refresh_token']).optional(),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
});

const formBody = express.urlencoded({ extended: false, limit: '20kb', parameterLimit: 50 });

const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

function userTokenResponse(tokens: UserTokens) {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    scope: tokens.scopes.join(' '),
    // reported on the live service since 2026, not yet in the official docs (kick-api.md §2.4)
    refresh_expires_in: tokens.refreshExpiresIn,
  };
}

export interface OAuthRouteDeps {
  app: App;
  users: KickUsers;
  authorizations: Authorizations;
  tokens: Tokens;
  log: Logger;
  record: (endpointOf: (req: Request) => string) => RequestHandler;
}

/** The identity host (id.kick.com): authorize page, token, revoke, introspect. */
export function oauthRoutes(deps: OAuthRouteDeps): Router {
  const { app, users, authorizations, tokens, log, record } = deps;
  const router = Router();

  router.get('/oauth/authorize', async (req, res) => {
    const request = authorizations.parse(req.query);
    if (request.isAutoDenied) {
      res.redirect(302, authorizations.deny(request));
      return;
    }
    if (request.autoApproveAs) {
      const location = await authorizations.approve(
        request,
        request.autoApproveAs,
        request.autoScopes ?? request.scopes,
      );
      res.redirect(302, location);
      return;
    }
    const pending = await authorizations.hold(request);
    sendAuthorizePage(res, { pending, appName: app.name, users: await users.list() });
  });

  router.post('/oauth/authorize/decision', formBody, async (req, res) => {
    const form = decisionFormSchema.safeParse(req.body ?? {});
    if (!form.success) {
      sendAuthorizeProblem(res, 'The form was incomplete. Start again from the app.');
      return;
    }
    const outcome = await authorizations.decide(form.data);
    if (outcome.kind === 'invalid') {
      sendAuthorizeProblem(res, outcome.message);
      return;
    }
    res.redirect(303, outcome.location);
  });

  router.post(
    '/oauth/token',
    record(() => 'oauth.token'),
    formBody,
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      if (!req.is('application/x-www-form-urlencoded')) throw invalidRequest();
      const parsed = tokenFormSchema.safeParse(req.body ?? {});
      if (!parsed.success) throw invalidRequest();
      const form = parsed.data;
      if (form.client_id !== app.clientId || !sameSecret(form.client_secret, app.clientSecret)) throw invalidClient();
      switch (form.grant_type) {
        case 'authorization_code': {
          const issued = await tokens.redeemCode({
            clientId: form.client_id,
            code: form.code,
            redirectUri: form.redirect_uri,
            codeVerifier: form.code_verifier,
          });
          res.json(userTokenResponse(issued));
          return;
        }
        case 'refresh_token':
          res.json(
            userTokenResponse(await tokens.refresh({ clientId: form.client_id, refreshToken: form.refresh_token })),
          );
          return;
        case 'client_credentials': {
          const issued = await tokens.issueAppToken(form.client_id);
          res.json({ access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn });
          return;
        }
      }
    },
  );

  router.post(
    '/oauth/revoke',
    record(() => 'oauth.revoke'),
    formBody,
    async (req, res) => {
      const parsed = revokeQuerySchema.safeParse(req.query);
      if (!parsed.success) throw invalidRequest();
      const hint = parsed.data.token_hint_type ?? parsed.data.token_type_hint;
      await tokens.revoke(
        parsed.data.token,
        hint === undefined ? undefined : hint === 'access_token' ? 'access' : 'refresh',
      );
      res.status(200).type('text/plain').send('OK');
    },
  );

  router.post(
    '/oauth/token/introspect',
    record(() => 'oauth.introspect'),
    introspectHandler(tokens),
  );

  router.use('/oauth', oauthErrorHandler(log));
  return router;
}

/**
 * §2.7: the bearer token itself is introspected. An inactive token answers `active: false` with
 * the other fields left out (one of the two behaviours kick-api.md allows); no token at all is 401.
 */
export function introspectHandler(tokens: Tokens): RequestHandler {
  return async (req, res) => {
    const token = bearerOf(req);
    if (!token) {
      res.status(401).json(kickUnauthorized().body);
      return;
    }
    const introspection = await tokens.introspect(token);
    res.json({ data: introspection ?? { active: false }, message: 'OK' });
  };
}
