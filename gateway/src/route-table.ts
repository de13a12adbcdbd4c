import { pathToRegexp } from 'path-to-regexp';
import type { ServiceName } from '@kickstand/platform/config';

/** Who may call: anyone, a signed-in user, or a super administrator. */
export type Access = 'public' | 'user' | 'admin';

export interface Route {
  /** `:name` matches one path segment; a trailing `/*` matches the path itself and anything below it. */
  path: string;
  service: ServiceName;
  access: Access;
}

/**
 * THE route table: which service answers which /api path. The spec's paths span several services
 * (`/api/platform/login` → auth, `/api/platform/kick/*` → kick-link), so the first matching row
 * wins and rows go most specific first; route-table.test.ts checks that no row hides another.
 */
export const routeTable: readonly Route[] = [
  { path: '/api/platform/login', service: 'auth', access: 'public' },
  { path: '/api/platform/register', service: 'auth', access: 'public' },
  { path: '/api/platform/kick/*', service: 'kick-link', access: 'user' },
  { path: '/api/platform/bot/*', service: 'bot-runner', access: 'user' },
  { path: '/api/platform/*', service: 'auth', access: 'user' },
  { path: '/api/admin/users/:id/webhooks/*', service: 'kick-link', access: 'admin' },
  { path: '/api/admin/users/:id/bot/*', service: 'bot-runner', access: 'admin' },
  // kick-link's admin views: delivery health across all channels, the webhook door's dead letters
  { path: '/api/admin/kick/*', service: 'kick-link', access: 'admin' },
  // the platform's bot account (who posts the replies)
  { path: '/api/admin/bot-account/*', service: 'kick-link', access: 'admin' },
  // stream analytics across all channels (realtime counts them)
  { path: '/api/admin/analytics/stream', service: 'realtime', access: 'admin' },
  { path: '/api/admin/*', service: 'auth', access: 'admin' },
  // team access: the owner's editors, the channels I may edit
  { path: '/api/team/*', service: 'auth', access: 'user' },
  // A channel's custom commands for the public commands page.
  { path: '/api/commands/channel/:channel', service: 'commands', access: 'public' },
  { path: '/api/commands/*', service: 'commands', access: 'user' },
  // a channel's named counters and timers live with the bot's runtime
  { path: '/api/counters/*', service: 'bot-runner', access: 'user' },
  { path: '/api/timers/*', service: 'bot-runner', access: 'user' },
  // event messages and the stream's state (from Kick's livestream events) too
  { path: '/api/event-messages/*', service: 'bot-runner', access: 'user' },
  { path: '/api/stream', service: 'bot-runner', access: 'user' },
  // moderation filters judge chat in bot-runner
  { path: '/api/moderation/*', service: 'bot-runner', access: 'user' },
  // Kick calls these (signed webhooks) or sends the browser here (OAuth callback): no sign-in token.
  { path: '/api/kick/*', service: 'kick-link', access: 'public' },
  // The built-in commands catalogue feeds the public commands page.
  { path: '/api/games/catalog', service: 'games', access: 'public' },
  { path: '/api/games/*', service: 'games', access: 'user' },
  { path: '/api/realtime/*', service: 'realtime', access: 'user' },
  // stream analytics: realtime reads the events it counts
  { path: '/api/analytics/*', service: 'realtime', access: 'user' },
];

/**
 * A row's path in path-to-regexp's syntax: the trailing `/*` becomes an optional wildcard, so the
 * path itself matches too. Case-sensitive (an oddly cased path matches no row and is a 404 here);
 * a trailing slash is allowed, as the services' routers allow it.
 */
function compile(path: string): RegExp {
  const pattern = path.endsWith('/*') ? `${path.slice(0, -2)}{/*rest}` : path;
  return pathToRegexp(pattern, { sensitive: true }).regexp;
}

export function createRouteMatcher(table: readonly Route[] = routeTable): (path: string) => Route | undefined {
  const compiled = table.map((route) => ({ route, pattern: compile(route.path) }));
  return (path) => compiled.find(({ pattern }) => pattern.test(path))?.route;
}
