import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok, type FakeRoute } from '../../../testing/fake-fetch';
import { aKickAccount, aUser } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { AdminUser } from '../admin-api';
import { UserManagement } from './users-table';

const admin = aUser({ id: 'a', username: 'admin', role: 'SUPER_ADMIN', createdAt: '2025-01-01T00:00:00.000Z' });
const linked = aUser({
  id: 'l',
  username: 'linked_one',
  email: 'linked@example.com',
  kickAccount: aKickAccount('sandbox_streamer'),
  createdAt: '2025-03-01T00:00:00.000Z',
});
const plain = aUser({
  id: 'p',
  username: 'plain_two',
  email: 'plain@example.com',
  createdAt: '2025-02-01T00:00:00.000Z',
});

function serve(users: AdminUser[] = [admin, linked, plain], overrides: Record<string, FakeRoute> = {}) {
  const list = users.map((user) => ({ ...user }));
  const server = installFakeFetch({
    'GET /api/admin/users': () =>
      ok({ users: list, pagination: { page: 1, limit: 200, total: list.length, pages: 1 } }),
    ...overrides,
  });
  return { server, list };
}

const rowOf = (username: string) => screen.getAllByTestId('user-row').find((row) => row.dataset.username === username)!;
const shownNames = () => screen.getAllByTestId('user-row').map((row) => row.dataset.username);

/** Presses the confirmation's own button. */
async function confirm(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name }));
}

describe('GET /api/admin/users on the user page', () => {
  test('when the page opens, then it asks for page 1 of 200 and lists everyone newest first', async () => {
    const { server } = serve();
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');
    expect(server.callsTo('GET /api/admin/users')[0]?.query).toEqual({ page: '1', limit: '200' });
    expect(shownNames()).toEqual(['linked_one', 'plain_two', 'admin']);
    expect(screen.getByText('Showing 3 of 3 users')).toBeInTheDocument();
  });

  test('when filters are used, then the list is filtered in the browser without new requests', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'PLAIN@');
    expect(shownNames()).toEqual(['plain_two']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'SUPER_ADMIN');
    expect(shownNames()).toEqual(['admin']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'ALL');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'username');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'asc');
    expect(shownNames()).toEqual(['admin', 'linked_one', 'plain_two']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'INACTIVE');
    expect(screen.getByText('No users found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search or filter criteria.')).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/users')).toHaveLength(1);
  });

  test('when a row is a super admin, then its only action is Make User; the bot switch is only offered with a linked Kick account', async () => {
    serve();
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');
    expect(
      within(rowOf('admin'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Make User']);
    expect(
      within(rowOf('linked_one'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Deactivate', 'Disable Bot', 'Make Admin']);
    expect(
      within(rowOf('plain_two'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Deactivate', 'Make Admin']);
    expect(within(rowOf('plain_two')).getByText('Not linked')).toBeInTheDocument();
  });

  test('when Make Admin is confirmed, then PATCH .../role asks for SUPER_ADMIN and the list reloads; the server refusal is shown', async () => {
    const user = userEvent.setup();
    const { server } = serve(undefined, {
      'PATCH /api/admin/users/p/role': (request) => ok({ ...plain, role: (request.body as { role: string }).role }),
      'PATCH /api/admin/users/a/role': fail(409, 'The last super admin cannot become a user'),
    });
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');

    await user.click(screen.getByRole('button', { name: 'Make plain_two SUPER_ADMIN' }));
    expect(await screen.findByRole('alertdialog', { name: 'Change role' })).toHaveTextContent(
      'Make plain_two a super admin?',
    );
    await confirm(user, 'Make Admin');
    expect(await screen.findByText('plain_two is now SUPER_ADMIN')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/admin/users/p/role').map((request) => request.body)).toEqual([
      { role: 'SUPER_ADMIN' },
    ]);
    await waitFor(() => expect(server.callsTo('GET /api/admin/users')).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Make admin USER' }));
    await confirm(user, 'Make User');
    expect(await screen.findByText('The last super admin cannot become a user')).toBeInTheDocument();
  });

  test('when a search is typed, then the server is asked for it (after a pause), from its first page', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'plain');
    await waitFor(() =>
      expect(server.callsTo('GET /api/admin/users').at(-1)?.query).toEqual({
        page: '1',
        limit: '200',
        search: 'plain',
      }),
    );
    expect(server.callsTo('GET /api/admin/users')[0]?.query).toEqual({ page: '1', limit: '200' });
  });

  test('when the list cannot be loaded, then the server error shows, else Failed to load users', async () => {
    serve([], { 'GET /api/admin/users': fail(500, '') });
    renderWithProviders(<UserManagement />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load users');
  });
});

describe('PATCH /api/admin/users/:id/status', () => {
  test('when Deactivate is pressed, then the call is made, the spec toast shows and the list reloads', async () => {
    const user = userEvent.setup();
    const { server, list } = serve(undefined, {
      'PATCH /api/admin/users/p/status': (request) => {
        const target = list.find((candidate) => candidate.id === 'p')!;
        target.isActive = (request.body as { isActive: boolean }).isActive;
        return ok(target, { message: 'User deactivated successfully' });
      },
    });
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');
    await user.click(screen.getByRole('button', { name: 'Deactivate plain_two' }));
    await confirm(user, 'Deactivate');

    expect(await screen.findByText('User deactivated successfully')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/admin/users/p/status')[0]?.body).toEqual({ isActive: false });
    await waitFor(() => expect(within(rowOf('plain_two')).getByText('Inactive')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Activate plain_two' })).toBeInTheDocument();
  });

  test('when the change fails, then the server error takes priority, else Failed to update user status', async () => {
    const user = userEvent.setup();
    const { server } = serve(undefined, {
      'PATCH /api/admin/users/p/status': fail(403, 'Super admin accounts cannot be deactivated'),
    });
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');
    await user.click(screen.getByRole('button', { name: 'Deactivate plain_two' }));
    await confirm(user, 'Deactivate');
    expect(await screen.findByText('Super admin accounts cannot be deactivated')).toBeInTheDocument();

    server.routes['PATCH /api/admin/users/p/status'] = { status: 500 };
    await user.click(screen.getByRole('button', { name: 'Deactivate plain_two' }));
    await confirm(user, 'Deactivate');
    expect(await screen.findByText('Failed to update user status')).toBeInTheDocument();
  });
});

describe('POST /api/admin/users/:id/bot/enable|disable', () => {
  test('when Disable Bot then Enable Bot are pressed, then each shows the spec toast and the button flips', async () => {
    const user = userEvent.setup();
    const { server } = serve(undefined, {
      'POST /api/admin/users/l/bot/disable': ok(
        { userId: 'l', botEnabled: false },
        { message: 'Bot disabled successfully' },
      ),
      'POST /api/admin/users/l/bot/enable': ok(
        { userId: 'l', botEnabled: true },
        { message: 'Bot enabled successfully' },
      ),
    });
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');

    await user.click(screen.getByRole('button', { name: 'Disable bot for linked_one' }));
    await confirm(user, 'Disable Bot');
    expect(await screen.findByText('Bot disabled successfully')).toBeInTheDocument();
    // the list is not refetched (auth learns the change a moment later); the row is patched
    expect(await screen.findByRole('button', { name: 'Enable bot for linked_one' })).toHaveTextContent('Enable Bot');
    expect(server.callsTo('GET /api/admin/users')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Enable bot for linked_one' }));
    expect(await screen.findByText('Bot enabled successfully')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Disable bot for linked_one' })).toBeInTheDocument();
  });

  test('when the switch fails, then the server error shows, else Failed to update bot status', async () => {
    const user = userEvent.setup();
    const { server } = serve(undefined, {
      'POST /api/admin/users/l/bot/disable': fail(400, 'This user has no linked Kick account'),
    });
    renderWithProviders(<UserManagement />);
    await screen.findAllByTestId('user-row');
    await user.click(screen.getByRole('button', { name: 'Disable bot for linked_one' }));
    await confirm(user, 'Disable Bot');
    expect(await screen.findByText('This user has no linked Kick account')).toBeInTheDocument();

    server.routes['POST /api/admin/users/l/bot/disable'] = { status: 502 };
    await user.click(screen.getByRole('button', { name: 'Disable bot for linked_one' }));
    await confirm(user, 'Disable Bot');
    expect(await screen.findByText('Failed to update bot status')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable bot for linked_one' })).toBeEnabled();
  });
});
