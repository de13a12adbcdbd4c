import { createRouteMatcher, routeTable } from './route-table';

const match = createRouteMatcher();

// Every call of the spec's call tables (section 7), plus the product's own public doors.
const specCalls: [method: string, path: string, service: string][] = [
  ['POST', '/api/platform/login', 'auth'],
  ['POST', '/api/platform/register', 'auth'],
  ['GET', '/api/platform/profile', 'auth'],
  ['GET', '/api/platform/kick/status', 'kick-link'],
  ['POST', '/api/platform/kick/link', 'kick-link'],
  ['DELETE', '/api/platform/kick/unlink', 'kick-link'],
  ['GET', '/api/commands', 'commands'],
  ['POST', '/api/commands', 'commands'],
  ['DELETE', '/api/commands', 'commands'],
  ['POST', '/api/platform/bot/start', 'bot-runner'],
  ['POST', '/api/platform/bot/stop', 'bot-runner'],
  ['GET', '/api/platform/bot/status', 'bot-runner'],
  ['GET', '/api/admin/users', 'auth'],
  ['PATCH', '/api/admin/users/u-42/status', 'auth'],
  ['POST', '/api/admin/users/u-42/bot/enable', 'bot-runner'],
  ['POST', '/api/admin/users/u-42/bot/disable', 'bot-runner'],
  ['GET', '/api/admin/users/u-42/webhooks', 'kick-link'],
  ['POST', '/api/admin/users/u-42/webhooks', 'kick-link'],
  ['POST', '/api/admin/users/u-42/webhooks/subscribe-batch', 'kick-link'],
  ['POST', '/api/admin/users/u-42/webhooks/subscribe-all', 'kick-link'],
  ['POST', '/api/admin/users/u-42/webhooks/unsubscribe-all', 'kick-link'],
  ['DELETE', '/api/admin/users/u-42/webhooks/01JK7Z8Q4W2M6B3T5N9R1C0XYZ', 'kick-link'],
  ['POST', '/api/kick/webhook', 'kick-link'],
  ['GET', '/api/kick/oauth/callback', 'kick-link'],
];

describe('route table', () => {
  test.each(specCalls)('when %s %s is called, then %s answers', (_method, path, service) => {
    expect(match(path)?.service).toBe(service);
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
});
