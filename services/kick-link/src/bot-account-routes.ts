import { botAccountMessages } from '@kickstand/api-contract';
import { Router } from 'express';
import { currentUser, requireAdmin, requireUser, type TokenVerifier } from '@kickstand/platform/auth';
import { notFound } from '@kickstand/platform/errors';
import type { Logger } from '@kickstand/platform/log';
import type { ChatSender } from './chat-sender';
import { noLinkMessage, type Links } from './links';
import { setBrowserCookie, type BrowserCookieSettings } from './oauth-browser';
import type { KickLinkRepository } from './repository';
import { orFail } from './or-fail';

export { botAccountMessages };

/**
 * The platform's bot account (super admins: see it, link it through Kick's OAuth, unlink it) and,
 * for the streamer, who their replies are posted as. The bot account's OAuth callback is the
 * streamer's one (/api/kick/oauth/callback): the stored state tells the flows apart; each flow
 * has its own browser cookie.
 */
export function botAccountRoutes(deps: {
  links: Links;
  chat: ChatSender;
  repo: KickLinkRepository;
  tokens: TokenVerifier;
  log: Logger;
  browserCookie: BrowserCookieSettings;
}): Router {
  const { links, chat, repo, tokens, log, browserCookie } = deps;
  const router = Router();
  const admin = requireAdmin(tokens);
  const signedIn = requireUser(tokens);

  router.get('/api/admin/bot-account', admin, (_req, res) =>
    orFail(res, log, botAccountMessages.loadFailed, async () => {
      res.json({ success: true, data: { botAccount: await links.botAccount() } });
    }),
  );

  router.post('/api/admin/bot-account/link', admin, (req, res) =>
    orFail(res, log, botAccountMessages.linkStartFailed, async () => {
      const { authUrl, browserKey } = await links.startBotAccount(currentUser(req).userId);
      // bound to the admin's browser like the streamer's link (oauth-browser.ts)
      setBrowserCookie(res, browserCookie, 'bot-account', browserKey);
      res.json({ success: true, data: { authUrl } });
    }),
  );

  router.delete('/api/admin/bot-account', admin, (_req, res) =>
    orFail(res, log, botAccountMessages.unlinkFailed, async () => {
      await links.unlinkBotAccount();
      res.json({ success: true, message: botAccountMessages.unlinked, data: { botAccount: null } });
    }),
  );

  router.get('/api/platform/kick/chat-sender', signedIn, (req, res) =>
    orFail(res, log, botAccountMessages.senderFailed, async () => {
      const link = await repo.links.byUser(currentUser(req).userId);
      if (!link) throw notFound(noLinkMessage);
      res.json({ success: true, data: await chat.describe(link) });
    }),
  );

  return router;
}
