import { Router } from 'express';
import { z } from 'zod';
import type { Channels } from '../channels';
import type { ImageUrls } from '../images';
import type { KickUsers } from '../kick-users';
import type { KickUserDoc } from '../repository';
import { appOrUserCaller, userCaller } from './auth';
import { kickInvalidRequest, parseKick } from './kick-errors';
import { presentChannel } from './presenters';
import { queryUserId, repeatable } from './query';

const maxPerRequest = 50;

const channelsQuerySchema = z.object({
  broadcaster_user_id: repeatable(queryUserId).optional(),
  slug: repeatable(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)).optional(),
});

const patchChannelSchema = z
  .object({
    stream_title: z.string().min(1).max(200).optional(),
    category_id: z.number().int().positive().optional(),
    custom_tags: z.array(z.string().min(1).max(25)).max(10).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined));

/** §4.1 `GET /channels` and §4.2 `PATCH /channels`. */
export function channelsRoutes(deps: { users: KickUsers; channels: Channels; images: ImageUrls }): Router {
  const { users, channels, images } = deps;
  const router = Router();

  router.get('/channels', async (req, res) => {
    const caller = appOrUserCaller(req, 'channel:read');
    const query = parseKick(channelsQuerySchema, req.query);
    const ids = query.broadcaster_user_id;
    const slugs = query.slug;
    // one kind per call (mixing is not allowed), at most 50
    if ((ids && slugs) || (ids ?? slugs ?? []).length > maxPerRequest) throw kickInvalidRequest();
    let found: KickUserDoc[];
    if (ids) {
      const byId = new Map((await users.byIds(ids)).map((user) => [user.userId, user]));
      found = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    } else if (slugs) {
      // Sources disagree on unknown slugs; the sandbox leaves them out rather than failing the call [?]
      const bySlug = new Map((await users.bySlugs(slugs)).map((user) => [user.slug, user]));
      found = [...new Set(slugs.map((slug) => slug.toLowerCase()))].flatMap((slug) => bySlug.get(slug) ?? []);
    } else {
      if (caller.userId === null) throw kickInvalidRequest();
      const own = await users.byId(caller.userId);
      found = own ? [own] : [];
    }
    const canSeeKeyOf = (user: KickUserDoc) =>
      caller.tokenType === 'user' && caller.userId === user.userId && caller.scopes.includes('streamkey:read');
    res.json({ data: found.map((user) => presentChannel(user, images, canSeeKeyOf(user))), message: 'OK' });
  });

  router.patch('/channels', async (req, res) => {
    const caller = userCaller(req, 'channel:write');
    const body = parseKick(patchChannelSchema, req.body);
    await channels.updateMetadata(caller.userId, {
      streamTitle: body.stream_title,
      categoryId: body.category_id,
      customTags: body.custom_tags,
    });
    res.status(204).end();
  });

  return router;
}
