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
  { path: '/api/commands/*', service: 'commands', access: 'user' },
  // Kick calls these (signed webhooks) or sends the browser here (OAuth callback): no sign-in token.
  { path: '/api/kick/*', service: 'kick-link', access: 'public' },
  // The built-in commands catalogue feeds the public commands page.
  { path: '/api/games/catalog', service: 'games', access: 'public' },
  { path: '/api/games/*', service: 'games', access: 'user' },
  { path: '/api/realtime/*', service: 'realtime', access: 'user' },
  // stream analytics: realtime reads the events it counts
  { path: '/api/analytics/*', service: 'realtime', access: 'user' },
];

function compile(path: string): RegExp {
  const hasWildcard = path.endsWith('/*');
  const segments = (hasWildcard ? path.slice(0, -2) : path).split('/').slice(1);
  const body = segments
    .map((segment) => (segment.startsWith(':') ? '/[^/]+' : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    .join('');
  return new RegExp(`^${body}${hasWildcard ? '(?:/.*)?' : ''}$`);
}

export function createRouteMatcher(table: readonly Route[] = routeTable): (path: string) => Route | undefined {
  const compiled = table.map((route) => ({ route, pattern: compile(route.path) }));
  return (path) => compiled.find(({ pattern }) => pattern.test(path))?.route;
}
