import express, { Router, type Request, type RequestHandler } from 'express';
import type { Logger } from '@kickstand/platform/log';
import type { Bans } from '../bans';
import type { Channels } from '../channels';
import type { Chat } from '../chat';
import type { EventSubscriptions } from '../event-subscriptions';
import type { ImageUrls } from '../images';
import type { KickUsers } from '../kick-users';
import { introspectHandler } from '../oauth/routes';
import type { Tokens } from '../oauth/tokens';
import type { Signer } from '../webhooks/signer';
import { authenticate } from './auth';
import { channelsRoutes } from './channels-routes';
import { chatRoutes } from './chat-routes';
import { kickErrorHandler, kickRouteNotFound } from './kick-errors';
import { moderationRoutes } from './moderation-routes';
import { publicKeyRoutes } from './public-key-routes';
import { translateRuleErrors } from './rule-errors';
import { subscriptionsRoutes } from './subscriptions-routes';
import { usersRoutes } from './users-routes';

export interface KickApiDeps {
  users: KickUsers;
  channels: Channels;
  chat: Chat;
  bans: Bans;
  subscriptions: EventSubscriptions;
  tokens: Tokens;
  signer: Signer;
  images: ImageUrls;
  log: Logger;
  record: (endpointOf: (req: Request) => string) => RequestHandler;
}

const endpoints: [prefix: string, name: string][] = [
  ['/users', 'users'],
  ['/channels', 'channels'],
  ['/chat', 'chat'],
  ['/moderation/bans', 'moderation.bans'],
  ['/events/subscriptions', 'events.subscriptions'],
  ['/public-key', 'public-key'],
  ['/token/introspect', 'token.introspect'],
];

const endpointOf = (req: Request): string =>
  endpoints.find(([prefix]) => req.path === prefix || req.path.startsWith(`${prefix}/`))?.[1] ?? 'other';

/** The API host's `/public/v1`: Kick's envelope for every answer, errors included. */
export function kickApiRoutes(deps: KickApiDeps): Router {
  const api = Router();
  api.use(deps.record(endpointOf));
  // deprecated since 15 Jan 2026 but still answering; it checks its own bearer, expired ones included
  api.post('/token/introspect', introspectHandler(deps.tokens));
  api.use(publicKeyRoutes(deps));
  // the token is checked before the body is read: a bad token is a 401 whatever the body
  api.use(authenticate(deps.tokens));
  api.use(express.json({ limit: '100kb' }));
  api.use(usersRoutes(deps));
  api.use(channelsRoutes(deps));
  api.use(chatRoutes(deps));
  api.use(moderationRoutes(deps));
  api.use(subscriptionsRoutes(deps));
  api.use(kickRouteNotFound);
  api.use(translateRuleErrors);
  api.use(kickErrorHandler(deps.log));

  const router = Router();
  router.use('/public/v1', api);
  return router;
}
