import { Router } from 'express';
import { z } from 'zod';
import type { ImageUrls } from '../images';
import type { KickUsers } from '../kick-users';
import { appOrUserCaller } from './auth';
import { kickInvalidRequest, parseKick } from './kick-errors';
import { presentUser } from './presenters';
import { queryUserId, repeatable } from './query';

const usersQuerySchema = z.object({ id: repeatable(queryUserId).optional() });

/** §3.1 `GET /users`. An app token may look users up by id (not documented either way [?]); it has no "self". */
export function usersRoutes({ users, images }: { users: KickUsers; images: ImageUrls }): Router {
  const router = Router();
  router.get('/users', async (req, res) => {
    const caller = appOrUserCaller(req, 'user:read');
    const query = parseKick(usersQuerySchema, req.query);
    let found;
    if (query.id) {
      const byId = new Map((await users.byIds(query.id)).map((user) => [user.userId, user]));
      // in the order asked, each once; unknown ids are simply absent
      found = [...new Set(query.id)].flatMap((id) => byId.get(id) ?? []);
    } else {
      if (caller.userId === null) throw kickInvalidRequest();
      const self = await users.byId(caller.userId);
      found = self ? [self] : [];
    }
    res.json({ data: found.map((user) => presentUser(user, images, user.userId === caller.userId)), message: 'OK' });
  });
  return router;
}
