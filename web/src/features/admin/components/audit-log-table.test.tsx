import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { AuditLogTable } from './audit-log-table';

const log = (id: string, action: string) => ({
  id,
  action,
  actor: { id: 'a1', username: 'admin' },
  target: { type: 'user', id: 'u1', username: 'streamer1' },
  details: { events: 'chat.message.sent,channel.followed', kickUsername: 'sandbox_streamer' },
  createdAt: '2026-03-01T12:00:00.000Z',
});

describe('GET /api/admin/audit on the audit page', () => {
  test('when it opens, then page 1 of 20 is asked for and each entry shows action, actor, target and details', async () => {
    const server = installFakeFetch({
      'GET /api/admin/audit': ok({
        logs: [log('e2', 'webhook.subscribed-batch'), log('e1', 'user.deactivated')],
        pagination: { page: 1, limit: 20, total: 2, pages: 1 },
      }),
    });
    renderWithProviders(<AuditLogTable />);
    const rows = await screen.findAllByTestId('audit-row');
    expect(server.callsTo('GET /api/admin/audit')[0]?.query).toEqual({ page: '1', limit: '20' });
    expect(rows.map((row) => row.dataset.action)).toEqual(['webhook.subscribed-batch', 'user.deactivated']);
    expect(within(rows[0]!).getByText('Selected webhooks subscribed')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('admin');
    expect(rows[0]).toHaveTextContent('streamer1');
    expect(rows[0]).toHaveTextContent('events: chat.message.sent, channel.followed · Kick: sandbox_streamer');
    expect(screen.getByText(/2 entries/)).toBeInTheDocument();
  });

  test('when an action is chosen or another page, then the server is asked for it; the filter starts again at page 1', async () => {
    const user = userEvent.setup();
    const server = installFakeFetch({
      'GET /api/admin/audit': (request) =>
        ok({
          logs: [
            log(`e-${request.query.page}-${request.query.action ?? 'all'}`, request.query.action ?? 'bot.enabled'),
          ],
          pagination: { page: Number(request.query.page), limit: 20, total: 45, pages: 3 },
        }),
    });
    renderWithProviders(<AuditLogTable />);
    const pager = await screen.findByRole('navigation', { name: 'Audit log pages' });
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(pager).toHaveTextContent('Page 2 of 3'));
    expect(server.requests.at(-1)?.query).toEqual({ page: '2', limit: '20' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'bot.disabled');
    await waitFor(() =>
      expect(server.requests.at(-1)?.query).toEqual({ page: '1', limit: '20', action: 'bot.disabled' }),
    );
    expect(await screen.findByText('Bot disabled', { selector: '.admin-action' })).toBeInTheDocument();
  });

  test('when nothing is logged, then an empty state', async () => {
    installFakeFetch({
      'GET /api/admin/audit': ok({ logs: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } }),
    });
    renderWithProviders(<AuditLogTable />);
    expect(await screen.findByText('No audit log entries found')).toBeInTheDocument();
  });
});
