import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tokenStorageKey } from '../../../config/constants';
import { fail, installFakeFetch, ok, type FakeRoute } from '../../../testing/fake-fetch';
import { aUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-with-providers';

const superAdmin = aUser({ id: 'a1', role: 'SUPER_ADMIN', username: 'admin', email: 'admin@kickstand.local' });
const stats = { totalUsers: 3, activeUsers: 2, inactiveUsers: 1, totalCommands: 4, totalAuditLogs: 5 };

function serveAdmin(overrides: Record<string, FakeRoute> = {}, user = superAdmin) {
  window.localStorage.setItem(tokenStorageKey, 'good-token');
  return installFakeFetch({
    'GET /api/platform/profile': ok(user),
    'GET /api/admin/stats': ok(stats),
    'GET /api/health': ok({ status: 'up', services: [] }),
    'GET /api/admin/audit': ok({ logs: [], pagination: { page: 1, limit: 10, total: 0, pages: 0 } }),
    'GET /api/admin/users': ok({ users: [], pagination: { page: 1, limit: 200, total: 0, pages: 0 } }),
    'GET /api/admin/analytics': ok({ days: [], topCommands: [] }),
    ...overrides,
  });
}

/** The panel after its 500 ms loading screen. */
const sidebar = () => screen.findByRole('navigation', { name: 'Admin sections' }, { timeout: 3000 });

describe('admin layout (spec §2)', () => {
  test('when the panel opens, then the loading screen shows first, then the sidebar with the seven sections', async () => {
    serveAdmin();
    renderApp('/admin/dashboard');
    expect(await screen.findByRole('status', { name: 'Loading the admin panel' })).toBeInTheDocument();
    const nav = await sidebar();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Users', 'Webhook', 'Analytics', 'Audit Logs', 'System', 'Settings']);
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin/dashboard');
    expect(within(crumbs).getByText('Dashboard')).toHaveAttribute('aria-current', 'page');
  });

  test('when a section is chosen, then the breadcrumb and the page follow', async () => {
    const user = userEvent.setup();
    serveAdmin();
    const { router } = renderApp('/admin/dashboard');
    await user.click(within(await sidebar()).getByRole('link', { name: 'Audit Logs' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/audit'));
    expect(await screen.findByRole('heading', { name: 'Audit Logs' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Audit Logs')).toBeInTheDocument();
  });

  test.each([
    ['/admin/system', 'System'],
    ['/admin/settings', 'Settings'],
  ])('when %s opens, then it says Coming Soon', async (path, title) => {
    serveAdmin();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title }, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('Coming Soon')).toBeInTheDocument();
  });

  test('when an unknown admin page opens, then the dashboard shows instead', async () => {
    serveAdmin();
    const { router } = renderApp('/admin/nothing-here');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'), { timeout: 3000 });
  });

  test('when a USER opens the panel, then the server refuses and the page says so, showing no admin data', async () => {
    const server = serveAdmin(
      { 'GET /api/admin/stats': fail(403, 'Administrator access required') },
      aUser({ role: 'USER', username: 'streamer1' }),
    );
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'No access' }, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('You do not have access to the admin panel.')).toBeInTheDocument();
    expect(screen.getByText('Administrator access required')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Admin sections' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'User Management' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/users')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  test('when the profile menu opens, then its inert items do nothing and Sign Out logs out', async () => {
    const user = userEvent.setup();
    serveAdmin();
    const { router } = renderApp('/admin/dashboard');
    await sidebar();
    const button = screen.getByRole('button', { name: 'Profile menu for admin' });
    await user.click(button);
    const menu = screen.getByRole('menu', { name: 'Profile' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Profile Settings', 'System Settings', 'Activity Logs', 'Sign Out']);
    expect(within(menu).getByRole('menuitem', { name: 'Profile Settings' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(within(menu).getByRole('menuitem', { name: 'Sign Out' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();

    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Activity Logs' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');

    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(window.localStorage.getItem(tokenStorageKey)).toBeNull();
  });

  test('when the mobile menu opens, then Escape, the close button or choosing a page closes it', async () => {
    const user = userEvent.setup();
    serveAdmin();
    renderApp('/admin/dashboard');
    await sidebar();
    const open = screen.getByRole('button', { name: 'Open menu' });
    const aside = screen.getByRole('complementary', { name: 'Admin panel' });
    expect(open).toHaveAttribute('aria-expanded', 'false');

    await user.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    expect(aside).toHaveClass('admin-sidebar-open');
    await user.keyboard('{Escape}');
    expect(aside).not.toHaveClass('admin-sidebar-open');

    await user.click(open);
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(aside).not.toHaveClass('admin-sidebar-open');

    await user.click(open);
    await user.click(within(aside).getByRole('link', { name: 'Users' }));
    await waitFor(() => expect(aside).not.toHaveClass('admin-sidebar-open'));
  });
});
