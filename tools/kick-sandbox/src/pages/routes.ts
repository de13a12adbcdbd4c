import { Router } from 'express';
import { z } from 'zod';
import type { App } from '../app-settings';
import { clientErrorsAsBadRequest } from '../client-errors';
import type { KickUsers } from '../kick-users';
import { sendChatPage } from './chat-page';
import { imagesRoutes } from './images-routes';
import { sendIndexPage } from './index-page';
import { sendRealKickPage } from './real-kick-page';
import type { RealKick } from '../real-kick';

const chatPageQuerySchema = z.object({
  channel: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .optional(),
});

/** The pages a person opens: `/` and `/sandbox`, plus the placeholder images. */
export function pagesRoutes(deps: { app: App; users: KickUsers; realKick: RealKick; publicUrl: string }): Router {
  const { app, users, realKick, publicUrl } = deps;
  const router = Router();

  router.get('/', async (_req, res) => {
    sendIndexPage(res, {
      publicUrl,
      clientId: app.clientId,
      redirectUris: app.redirectUris,
      settings: app.settings(),
      users: await users.list(),
    });
  });

  router.get('/sandbox', async (req, res) => {
    const parsed = chatPageQuerySchema.safeParse(req.query);
    const list = await users.list();
    // the seeded streamer first: the channel a newcomer links
    const preferred = list.find((user) => user.slug === 'sandbox_streamer')?.userId;
    sendChatPage(res, { users: list, channelUserId: (parsed.success ? parsed.data.channel : undefined) ?? preferred });
  });

  router.get('/sandbox/real-kick', async (_req, res) => {
    sendRealKickPage(res, { settings: realKick.get(), users: await users.list() });
  });

  router.use(imagesRoutes({ users }));
  router.use(clientErrorsAsBadRequest);
  return router;
}
