import { createRouteMatcher, routeTable } from './route-table';

const match = createRouteMatcher();

// Every call of the spec's call tables (section 7), plus the product's own public doors.
const specCalls: [method: string, path: string, service: string, access: string][] = [
  ['POST', '/api/platform/login', 'auth', 'public'],
  ['POST', '/api/platform/register', 'auth', 'public'],
  ['GET', '/api/platform/profile', 'auth', 'user'],
  ['GET', '/api/platform/kick/status', 'kick-link', 'user'],
  ['GET', '/api/platform/kick/delivery-health', 'kick-link', 'user'],
  ['POST', '/api/platform/kick/link', 'kick-link', 'user'],
  ['DELETE', '/api/platform/kick/unlink', 'kick-link', 'user'],
  ['GET', '/api/commands', 'commands', 'user'],
  ['POST', '/api/commands', 'commands', 'user'],
  ['DELETE', '/api/commands', 'commands', 'user'],
  ['POST', '/api/platform/bot/start', 'bot-runner', 'user'],
  ['POST', '/api/platform/bot/stop', 'bot-runner', 'user'],
  ['GET', '/api/platform/bot/status', 'bot-runner', 'user'],
  ['GET', '/api/admin/users', 'auth', 'admin'],
  ['PATCH', '/api/admin/users/u-42/status', 'auth', 'admin'],
  ['POST', '/api/admin/users/u-42/bot/enable', 'bot-runner', 'admin'],
  ['POST', '/api/admin/users/u-42/bot/disable', 'bot-runner', 'admin'],
  ['GET', '/api/admin/users/u-42/webhooks', 'kick-link', 'admin'],
  ['GET', '/api/admin/kick/delivery-health', 'kick-link', 'admin'],
  ['POST', '/api/admin/users/u-42/webhooks', 'kick-link', 'admin'],
  ['POST', '/api/admin/users/u-42/webhooks/subscribe-batch', 'kick-link', 'admin'],
  ['POST', '/api/admin/users/u-42/webhooks/subscribe-all', 'kick-link', 'admin'],
  ['POST', '/api/admin/users/u-42/webhooks/unsubscribe-all', 'kick-link', 'admin'],
  ['DELETE', '/api/admin/users/u-42/webhooks/01JK7Z8Q4W2M6B3T5N9R1C0XYZ', 'kick-link', 'admin'],
  ['GET', '/api/admin/kick/dead-letters', 'kick-link', 'admin'],
  ['POST', '/api/admin/kick/dead-letters/01JK7Z8Q4W2M6B3T5N9R1C0XYZ/replay', 'kick-link', 'admin'],
  ['DELETE', '/api/admin/kick/dead-letters/01JK7Z8Q4W2M6B3T5N9R1C0XYZ', 'kick-link', 'admin'],
  ['POST', '/api/kick/webhook', 'kick-link', 'public'],
  ['GET', '/api/kick/oauth/callback', 'kick-link', 'public'],
  ['GET', '/api/games/catalog', 'games', 'public'],
  ['PUT', '/api/games/settings', 'games', 'user'],
  ['GET', '/api/realtime/chat', 'realtime', 'user'],
  ['GET', '/api/analytics/stream', 'realtime', 'user'],
  ['GET', '/api/admin/analytics/stream', 'realtime', 'admin'],
  ['GET', '/api/admin/analytics', 'auth', 'admin'],
];

describe('route table', () => {
  test.each(specCalls)('when %s %s is called, then %s answers (%s)', (_method, path, service, access) => {
    expect(match(path)).toMatchObject({ service, access });
  });

  test('when a path is under /api/admin, then only administrators may call it', () => {
    for (const route of routeTable.filter((row) => row.path.startsWith('/api/admin')))
      expect(route.access).toBe('admin');
  });

  test('when a row is sampled, then no earlier, broader row hides it', () => {
    for (const route of routeTable) {
      const samples = [route.path.replace(/\/\*$/, ''), route.path.replace(/\/\*$/, '/anything/below')].map((path) =>
        path.replace(/:[^/]+/g, 'an-id'),
      );
      for (const sample of samples) expect(match(sample)).toBe(route);
    }
  });

  test('when a path only shares a prefix with a row, then it does not match that row', () => {
    expect(match('/api/commandsx')).toBeUndefined();
    expect(match('/api/platformer')).toBeUndefined();
    expect(match('/api/admin/users/u-42/webhooksx')?.service).toBe('auth');
  });

  test('when a path is outside every row, then nothing matches', () => {
    expect(match('/api/unknown')).toBeUndefined();
    expect(match('/dashboard')).toBeUndefined();
  });

  test('when a path ends in a slash, then it matches its row as without', () => {
    expect(match('/api/platform/login/')).toMatchObject({ service: 'auth', access: 'public' });
    expect(match('/api/commands/')).toMatchObject({ service: 'commands', access: 'user' });
  });

  test('when a path is cased differently, then no row matches it (a 404, never a wrongly guarded route)', () => {
    expect(match('/API/admin/users')).toBeUndefined();
    expect(match('/api/Admin/users')).toBeUndefined();
  });

  test('when a parameter is empty, then the row does not match', () => {
    expect(match('/api/admin/users//bot/enable')?.service).toBe('auth');
  });
});
