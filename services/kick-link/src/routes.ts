import { Router, type Response } from 'express';
import { currentUser, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { AppError } from '@kickstand/platform/errors';
import type { Logger } from '@kickstand/platform/log';
import type { Links } from './links';
import { browserKeysOf, clearBrowserCookie, setBrowserCookie, type BrowserCookieSettings } from './oauth-browser';

/** The spec's fallback texts (§8), answered when something unexpected fails. */
export const linkStartFailedMessage = 'Failed to start Kick linking';
export const statusFailedMessage = 'Failed to check Kick account status';
export const unlinkFailedMessage = 'Failed to unlink Kick account';

/**
 * A deliberate AppError (4xx, 503) is answered by the error handler as usual; anything else is
 * logged and answered 500 with the spec's own failure text instead of a generic one.
 */
async function orFail(res: Response, log: Logger, message: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    // a deliberate refusal (4xx, or a 503 with Retry-After) is answered as it is by the error handler
    if (error instanceof AppError && error.status !== 500) throw error;
    log.error({ err: error }, message);
    res.status(500).json({ success: false, error: message });
  }
}

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

  router.post('/api/platform/kick/link', signedIn, (req, res) =>
    orFail(res, log, linkStartFailedMessage, async () => {
      const { authUrl, browserKey } = await links.start(currentUser(req).userId);
      // the callback goes on only in the browser holding this cookie (oauth-browser.ts)
      setBrowserCookie(res, browserCookie, 'streamer', browserKey);
      res.json({ success: true, data: { authUrl } });
    }),
  );

  router.get('/api/platform/kick/status', signedIn, (req, res) =>
    orFail(res, log, statusFailedMessage, async () => {
      res.json({ success: true, data: await links.status(currentUser(req).userId) });
    }),
  );

  router.delete('/api/platform/kick/unlink', signedIn, (req, res) =>
    orFail(res, log, unlinkFailedMessage, async () => {
      await links.unlink(currentUser(req).userId);
      res.json({ success: true, message: 'Kick account unlinked successfully', data: { hasKickAccount: false } });
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
