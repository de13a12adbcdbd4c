import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { tokenStorageKey } from '../config/constants';
import { renderApp } from '../testing/render-with-providers';
import { fail, installFakeFetch, ok } from '../testing/fake-fetch';
import { aUser } from '../testing/fixtures';
import { watchPageLeaving } from '../lib/page-leaving';

const streamerRoutes = (user = aUser()) => ({
  'GET /api/platform/profile': ok(user),
  'GET /api/platform/bot/status': ok({
    isRunning: false,
    isConnected: false,
    connected: false,
    status: 'disconnected',
    commands: 1,
  }),
  'GET /api/realtime/chat': ok({ messages: [] }),
  'GET /api/games/settings': ok({ steamAccountId: null }),
});

const adminRoutes = {
  'GET /api/admin/stats': ok({ totalUsers: 1, activeUsers: 1, inactiveUsers: 0, totalCommands: 0, totalAuditLogs: 0 }),
  'GET /api/health': ok({ status: 'up', services: [] }),
  'GET /api/admin/audit': ok({ logs: [], pagination: { page: 1, limit: 10, total: 0, pages: 0 } }),
};

describe('routes and redirects (spec §2)', () => {
  test('when a signed-out visitor opens /, then the landing page shows with Home, Commands and Login', async () => {
    installFakeFetch();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kickstand' })).toBeInTheDocument();
    for (const name of ['Home', 'Commands']) expect(screen.getAllByRole('link', { name })[0]).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').filter((item) => item.classList.contains('feature-card'))).toHaveLength(6);
  });

  test('when a signed-out visitor opens /dashboard, then they are sent to /', async () => {
    installFakeFetch();
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  test('when a token is stored, then a spinner shows while the profile loads and then the dashboard', async () => {
    window.localStorage.setItem(tokenStorageKey, 'good-token');
    let answerProfile: () => void = () => undefined;
    const routes = streamerRoutes();
    installFakeFetch({
      ...routes,
      'GET /api/platform/profile': () =>
        new Promise((resolve) => {
          answerProfile = () => resolve(routes['GET /api/platform/profile']);
        }),
    });
    const { router } = renderApp('/dashboard');
    expect(await screen.findByRole('status', { name: 'Loading your session' })).toBeInTheDocument();
    await act(async () => answerProfile());
    await waitFor(() => expect(screen.getByTestId('dashboard-username')).toHaveTextContent('streamer1'), {
      timeout: 3000,
    });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  test('when a signed-in user opens the public layout, then they are sent on to /dashboard (replace)', async () => {
    window.localStorage.setItem(tokenStorageKey, 'good-token');
    installFakeFetch(streamerRoutes());
    const { router } = renderApp('/commands');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  test('when the stored token is refused, then it is removed, the session-expired toast shows and / is shown', async () => {
    window.localStorage.setItem(tokenStorageKey, 'expired-token');
    installFakeFetch({ 'GET /api/platform/profile': fail(401, 'Unauthorized') });
    const { router } = renderApp('/dashboard');
    expect(await screen.findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(window.localStorage.getItem(tokenStorageKey)).toBeNull();
  });

  test('when the profile fetch fails otherwise, then the token is removed and the visitor is signed out', async () => {
    window.localStorage.setItem(tokenStorageKey, 'some-token');
    installFakeFetch({ 'GET /api/platform/profile': fail(500, 'boom') });
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(window.localStorage.getItem(tokenStorageKey)).toBeNull();
    expect(screen.queryByText('Your session has expired. Please log in again.')).not.toBeInTheDocument();
  });

  test('when the profile fetch fails as the page is being left, then the token stays', async () => {
    // Chromium fails a fetch cut off by a navigation like a network error
    watchPageLeaving(window);
    window.localStorage.setItem(tokenStorageKey, 'some-token');
    installFakeFetch({ 'GET /api/platform/profile': fail(500, 'cut off') });
    window.dispatchEvent(new Event('beforeunload'));
    try {
      const { router } = renderApp('/dashboard');
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(window.localStorage.getItem(tokenStorageKey)).toBe('some-token');
    } finally {
      window.dispatchEvent(new Event('pageshow'));
    }
  });

  test('when an unknown path is opened, then the visitor lands on /', async () => {
    installFakeFetch();
    const { router } = renderApp('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  test.each(['/admin', '/admin/'])(
    'when a signed-in user opens %s, then it redirects to /admin/dashboard',
    async (path) => {
      window.localStorage.setItem(tokenStorageKey, 'good-token');
      installFakeFetch({ ...streamerRoutes(aUser({ role: 'SUPER_ADMIN', username: 'admin' })), ...adminRoutes });
      const { router } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
      expect(
        await screen.findByRole('heading', { name: 'Welcome back, admin' }, { timeout: 3000 }),
      ).toBeInTheDocument();
    },
  );

  test('when a signed-out visitor opens /admin/users, then they are sent to /', async () => {
    installFakeFetch();
    const { router } = renderApp('/admin/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  test('when /commands is opened, then the catalogue shows with the badge and Show Rules / Hide Rules', async () => {
    installFakeFetch({
      'GET /api/games/catalog': ok({
        categories: [
          { name: 'Dota 2', commands: [{ name: '$hero', description: 'Hero info', example: '$hero axe' }] },
          {
            name: 'Game Features',
            commands: [
              {
                name: '$game',
                description: 'Starts a game',
                example: '$game raidboss 5',
                rules: ['One game at a time.'],
              },
            ],
          },
          { name: 'Interactive', commands: [] },
        ],
      }),
    });
    renderApp('/commands');
    expect(await screen.findByText('Custom Commands Available After Login')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Dota 2' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Game Features' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Interactive' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Show Rules' })).toHaveLength(1);
    act(() => screen.getByRole('button', { name: 'Show Rules' }).click());
    expect(screen.getByText('One game at a time.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide Rules' })).toHaveAttribute('aria-expanded', 'true');
  });

  test('when /commands?channel= names a linked channel, then its custom commands show with aliases, permission and cooldowns', async () => {
    const server = installFakeFetch({
      'GET /api/games/catalog': ok({ categories: [] }),
      'GET /api/commands/channel/some_streamer': ok({
        channel: 'Some_Streamer',
        commands: [
          {
            command: 'discord',
            response: 'Join us!',
            aliases: ['dc'],
            permission: 'subscribers',
            globalCooldownSeconds: 5,
            userCooldownSeconds: 60,
            modsExempt: true,
          },
        ],
      }),
      'GET /api/commands/channel/nobody': fail(404, 'No Kickstand commands for the channel "nobody".'),
    });
    const { router } = renderApp('/commands?channel=some_streamer');

    expect(await screen.findByRole('heading', { name: 'Custom commands of Some_Streamer' })).toBeInTheDocument();
    const discord = screen.getByTestId('channel-command-discord');
    expect(discord).toHaveTextContent('$discord $dc');
    expect(discord).toHaveTextContent('Join us!');
    expect(discord).toHaveTextContent('Subscribers · cooldown 5 s · per viewer 1 min · mods exempt');

    const input = screen.getByLabelText('A channel’s custom commands');
    act(() => {
      fireEvent.change(input, { target: { value: 'nobody' } });
      fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    });
    expect(await screen.findByText('No Kickstand commands for the channel "nobody".')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?channel=nobody');
    expect(server.callsTo('GET /api/commands/channel/nobody')).toHaveLength(1);
  });
});
