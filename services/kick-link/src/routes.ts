import { kickLinkMessages, kickLinkQuerySchema } from '@kickstand/api-contract';
import { parseQuery } from '@kickstand/platform/http';
import { Router } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import type { Logger } from '@kickstand/platform/log';
import type { Links } from './links';
import { browserKeysOf, clearBrowserCookie, setBrowserCookie, type BrowserCookieSettings } from './oauth-browser';
import { orFail } from './or-fail';

/** The spec's fallback texts (§8), answered when something unexpected fails. */
export const linkStartFailedMessage = kickLinkMessages.linkStartFailed;
export const statusFailedMessage = kickLinkMessages.statusFailed;
export const unlinkFailedMessage = kickLinkMessages.unlinkFailed;

/** The streamer's Kick link (spec §7) and the OAuth callback Kick sends the browser to. */
export function kickLinkRoutes(deps: {
  links: Links;
  tokens: TokenVerifier;
  log: Logger;
  browserCookie: BrowserCookieSettings;
}): Router {
  const { links, tokens, log, browserCookie } = deps;
  const router = Router();
  const signedIn = requireUser(tokens);

  router.post('/api/platform/kick/link', signedIn, (req, res) => {
    // `?moderation=true`: the dashboard's "Grant moderation access" also asks the moderation scopes
    const { moderation } = parseQuery(kickLinkQuerySchema, req);
    return orFail(res, log, linkStartFailedMessage, async () => {
      const { authUrl, browserKey } = await links.start(currentUser(req).userId, { moderation: moderation === 'true' });
      // the callback goes on only in the browser holding this cookie (oauth-browser.ts)
      setBrowserCookie(res, browserCookie, 'streamer', browserKey);
      res.json({ success: true, data: { authUrl } });
    });
  });

  router.get('/api/platform/kick/status', signedIn, (req, res) =>
    orFail(res, log, statusFailedMessage, async () => {
      res.json({ success: true, data: await links.status(currentUser(req).userId) });
    }),
  );

  router.delete('/api/platform/kick/unlink', signedIn, (req, res) =>
    orFail(res, log, unlinkFailedMessage, async () => {
      await links.unlink(currentUser(req).userId);
      res.json({ success: true, message: kickLinkMessages.unlinked, data: { hasKickAccount: false } });
    }),
  );

  // Public: the browser arrives from Kick. It always leaves with a redirect, never JSON or a stack.
  // Serves both flows (the streamer's and the bot account's): the stored state tells them apart.
  router.get('/api/kick/oauth/callback', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const outcome = await links.complete(req.query, browserKeysOf(req));
    if (outcome.spentBrowserKey) clearBrowserCookie(res, browserCookie, outcome.spentBrowserKey);
    res.redirect(302, outcome.location);
  });

  return router;
}
