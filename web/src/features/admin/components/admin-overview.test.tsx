import { screen, within } from '@testing-library/react';
import { fail, installFakeFetch, ok, type FakeRoute } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { AuditEntry } from '../admin-api';
import { AdminOverview } from './admin-overview';

const entry = (index: number): AuditEntry => ({
  id: `e${index}`,
  action: index % 2 === 0 ? 'bot.disabled' : 'user.deactivated',
  actor: { id: 'a1', username: 'admin' },
  target: { type: 'user', id: `u${index}`, username: `streamer${index}` },
  details: {},
  createdAt: new Date(Date.UTC(2026, 2, 1, 12, index)).toISOString(),
});

const service = (name: string, status: 'up' | 'down', uptimeSeconds: number | null) => ({
  name,
  status,
  latencyMs: 2,
  uptimeSeconds,
});

function serve(overrides: Record<string, FakeRoute> = {}) {
  return installFakeFetch({
    'GET /api/admin/stats': ok({
      totalUsers: 1247,
      activeUsers: 89,
      inactiveUsers: 1158,
      totalCommands: 156,
      totalAuditLogs: 12,
    }),
    'GET /api/health': ok({
      status: 'up',
      services: [service('auth', 'up', 7300), service('games', 'up', 3720)],
    }),
    'GET /api/admin/audit': ok({
      logs: Array.from({ length: 12 }, (_, index) => entry(12 - index)),
      pagination: { page: 1, limit: 10, total: 12, pages: 2 },
    }),
    ...overrides,
  });
}

const card = (id: string) => screen.getByTestId(`stat-${id}`);

describe('admin dashboard', () => {
  test('when it opens, then the banner greets the admin and the cards show the real figures', async () => {
    const server = serve();
    renderWithProviders(<AdminOverview username="admin" />);
    expect(screen.getByRole('heading', { name: 'Welcome back, admin' })).toBeInTheDocument();
    await screen.findByTestId('stat-total-users');
    expect(card('total-users')).toHaveTextContent(/Total Users\s*1,247/);
    expect(card('active-users')).toHaveTextContent('89');
    expect(card('inactive-users')).toHaveTextContent('1,158');
    expect(card('total-commands')).toHaveTextContent('156');
    expect(card('audit-logs')).toHaveTextContent('12');
    expect(await within(card('system-health')).findByText('Healthy')).toBeInTheDocument();
    expect(card('system-health')).toHaveTextContent('2 of 2 services up');
    // the youngest service: 1 h 2 min
    expect(card('uptime')).toHaveTextContent('1h 2m');
    expect(server.callsTo('GET /api/admin/audit')[0]?.query).toEqual({ page: '1', limit: '10' });
  });

  test('when a service is down, then System Health reads Warning (the gateway answers 503 with the list)', async () => {
    serve({
      'GET /api/health': {
        status: 503,
        body: {
          success: false,
          error: 'Services down: games',
          data: { status: 'degraded', services: [service('auth', 'up', 60), service('games', 'down', null)] },
        },
      },
    });
    renderWithProviders(<AdminOverview username="admin" />);
    await screen.findByTestId('stat-system-health');
    expect(await within(card('system-health')).findByText('Warning')).toBeInTheDocument();
    expect(card('system-health')).toHaveTextContent('1 of 2 services up');
    expect(card('uptime')).toHaveTextContent('1m 0s');
  });

  test('when the audit log has entries, then recent activity shows at most 10, newest first', async () => {
    serve();
    renderWithProviders(<AdminOverview username="admin" />);
    const items = await screen.findAllByTestId('activity-item');
    expect(items).toHaveLength(10);
    expect(items[0]).toHaveTextContent('Bot disabled');
    expect(items[0]).toHaveTextContent('admin disabled the bot of streamer12');
    expect(items[1]).toHaveTextContent('User deactivated');
  });

  test('when the figures cannot be loaded, then Failed to load dashboard data', async () => {
    serve({ 'GET /api/admin/stats': { status: 500 } });
    renderWithProviders(<AdminOverview username="admin" />);
    expect(await screen.findByText('Failed to load dashboard data')).toBeInTheDocument();
  });

  test('when the quick actions show, then they lead to the admin sections', async () => {
    serve({ 'GET /api/admin/audit': fail(500, 'boom') });
    renderWithProviders(<AdminOverview username="admin" />);
    expect(screen.getByRole('link', { name: /Manage Users/ })).toHaveAttribute('href', '/admin/users');
    expect(screen.getByRole('link', { name: /Manage Webhooks/ })).toHaveAttribute('href', '/admin/webhooks');
    expect(screen.getByRole('link', { name: /View Audit Logs/ })).toHaveAttribute('href', '/admin/audit');
    expect(screen.getByRole('link', { name: /View Analytics/ })).toHaveAttribute('href', '/admin/analytics');
    expect(await screen.findByText('boom')).toBeInTheDocument();
  });
});
