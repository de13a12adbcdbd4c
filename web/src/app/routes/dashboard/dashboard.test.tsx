import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultCommandSettings } from '@kickstand/api-contract';
import { tokenStorageKey } from '../../../config/constants';
import { aHealth } from '../../../features/delivery-health/testing';
import { browser } from '../../../lib/browser';
import { setSocket } from '../../../lib/socket';
import type { BotStatus } from '../../../lib/socket-events';
import { FakeSocket } from '../../../testing/fake-socket';
import { fail, installFakeFetch, ok, type FakeRoute } from '../../../testing/fake-fetch';
import { aChatMessage, aKickAccount, aUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-with-providers';

const stopped: BotStatus = {
  isRunning: false,
  isConnected: false,
  connected: false,
  status: 'disconnected',
  commands: 1,
};
const running: BotStatus = { isRunning: true, isConnected: true, connected: true, status: 'connected', commands: 1 };

function serveDashboard(overrides: Record<string, FakeRoute> = {}, user = aUser({ kickAccount: aKickAccount() })) {
  let bot = stopped;
  return installFakeFetch({
    'GET /api/platform/profile': ok(user),
    'GET /api/platform/bot/status': () => ok(bot),
    'POST /api/platform/bot/start': () => {
      bot = running;
      return ok();
    },
    'POST /api/platform/bot/stop': () => {
      bot = stopped;
      return ok();
    },
    'GET /api/realtime/chat': ok({ messages: [] }),
    'GET /api/commands': ok([{ command: 'test', response: 'Hello!', ...defaultCommandSettings }]),
    'GET /api/commands/variables': ok([]),
    'GET /api/games/settings': ok({ steamAccountId: null }),
    'GET /api/platform/kick/status': ok({
      hasKickAccount: true,
      kickAccount: {
        kickUsername: 'sandbox_streamer',
        kickEmail: 'sandbox_streamer@kick.example',
        profilePicture: null,
        linkedAt: '2025-02-01T00:00:00.000Z',
      },
    }),
    ...overrides,
  });
}

async function openDashboard(path = '/dashboard') {
  window.localStorage.setItem(tokenStorageKey, 'good-token');
  const rendered = renderApp(path);
  await screen.findByTestId('dashboard-username', {}, { timeout: 3000 });
  return rendered;
}

describe('streamer dashboard (spec §2)', () => {
  test('when it opens, then the header shows the username, Bot Manager and Exit, and Setup is the open tab', async () => {
    serveDashboard();
    await openDashboard();
    expect(screen.getByTestId('dashboard-username')).toHaveTextContent('streamer1');
    expect(screen.getByRole('heading', { level: 1, name: 'Bot Manager' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(document.title).toBe('Setup · Kickstand');
    expect(screen.getByRole('button', { name: 'Exit' })).toBeInTheDocument();
    const tabs = screen.getAllByRole('tab').slice(0, 4);
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Kick Account', 'Setup', 'Commands', 'Live Chat']);
    expect(screen.getByRole('tab', { name: 'Setup' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('heading', { name: 'Bot Setup & Configuration' })).toBeInTheDocument();
    expect(screen.getByText('ideas@kickstand.example')).toHaveAttribute('href', 'mailto:ideas@kickstand.example');
  });

  test('when the Setup tab shows Settings and Features, then they hold the spec tiles', async () => {
    const user = userEvent.setup();
    serveDashboard();
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.getByLabelText('Command prefix')).toHaveValue('$');
    expect(screen.getByLabelText('Cooldown')).toHaveValue('1s');
    for (const text of ['Broadcaster Only', 'Viewer Commands', 'Command Usage', 'Error Tracking']) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Steam account ID')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Features' }));
    for (const text of ['Interactive Commands', 'Game Integration', 'Dota 2 Integration', 'Real-time Analytics']) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByText('Coming Soon')).toBeInTheDocument();
  });

  test('when a bot account posts the replies, then the dashboard names it and Setup says to make it a moderator', async () => {
    serveDashboard({
      'GET /api/platform/kick/chat-sender': ok({
        kind: 'bot-account',
        kickUsername: 'kickstand_bot',
        isFallback: false,
        botRefusal: '',
        botRetryAt: null,
        lastError: '',
        lastErrorAt: null,
        botAccountUsername: 'kickstand_bot',
      }),
    });
    await openDashboard();

    expect(await screen.findByTestId('reply-sender')).toHaveTextContent('Replies are posted as @kickstand_bot');
    expect(screen.getByTestId('bot-moderator-hint')).toHaveTextContent(
      'Make @kickstand_bot a moderator of your channel: type /mod kickstand_bot in your chat.',
    );
  });

  test('when arrow keys are used on the tabs, then the selection moves', async () => {
    const user = userEvent.setup();
    serveDashboard();
    await openDashboard();
    screen.getByRole('tab', { name: 'Setup' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Commands' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Commands' })).toHaveFocus();
  });

  test('when the bot reaches chat while the read after Start Bot is on its way, then the older answer does not win', async () => {
    const user = userEvent.setup();
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    let bot = stopped;
    let holdReads = false;
    const held: Array<() => void> = [];
    serveDashboard({
      'GET /api/platform/bot/status': () => {
        const answer = ok(bot);
        return holdReads ? new Promise((resolve) => held.push(() => resolve(answer))) : answer;
      },
      'POST /api/platform/bot/start': () => {
        bot = { ...running, isConnected: false, connected: false, status: 'disconnected' };
        holdReads = true;
        return ok();
      },
    });
    await openDashboard();
    await waitFor(() => expect(screen.getByTestId('bot-running')).toHaveTextContent('Stopped'));

    await user.click(screen.getByRole('button', { name: 'Start Bot' }));
    await waitFor(() => expect(held).toHaveLength(1));
    // the chat subscription is active: the event overtakes the read answered before it
    bot = running;
    holdReads = false;
    act(() => socket.serverEmit('bot-status', running));
    act(() => held.shift()?.());

    await waitFor(() => expect(screen.getByTestId('bot-connection')).toHaveTextContent(/^Connected to chat/));
  });

  test('when the socket reconnects after the bot reached chat, then the status is read again', async () => {
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    let bot: BotStatus = { ...running, isConnected: false, connected: false, status: 'disconnected' };
    const server = serveDashboard({ 'GET /api/platform/bot/status': () => ok(bot) });
    await openDashboard();
    await waitFor(() => expect(screen.getByTestId('bot-running')).toHaveTextContent('Running'));
    const reads = server.callsTo('GET /api/platform/bot/status').length;

    // the bot reached chat while the socket was away: its bot-status went nowhere
    act(() => socket.serverDisconnect());
    bot = running;
    act(() => socket.serverConnect());

    await waitFor(() => expect(server.callsTo('GET /api/platform/bot/status').length).toBe(reads + 1));
    await waitFor(() => expect(screen.getByTestId('bot-connection')).toHaveTextContent(/^Connected to chat/));
  });

  test('when the bot is started and stopped, then the status refreshes; bot-status events patch it live', async () => {
    const user = userEvent.setup();
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    const server = serveDashboard();
    await openDashboard();
    await waitFor(() => expect(screen.getByTestId('bot-running')).toHaveTextContent('Stopped'));

    await user.click(screen.getByRole('button', { name: 'Start Bot' }));
    await waitFor(() => expect(screen.getByTestId('bot-running')).toHaveTextContent('Running'));
    expect(server.callsTo('POST /api/platform/bot/start')).toHaveLength(1);

    act(() =>
      socket.serverEmit('bot-status', { ...running, isConnected: false, connected: false, status: 'disconnected' }),
    );
    // RTK batches cache patches to the next frame
    await waitFor(() => expect(screen.getByTestId('bot-connection')).toHaveTextContent('Not connected to chat'));

    await user.click(screen.getByRole('button', { name: 'Stop Bot' }));
    await waitFor(() => expect(screen.getByTestId('bot-running')).toHaveTextContent('Stopped'));
  });

  test('when a bot-error arrives, then an error toast shows its message', async () => {
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    serveDashboard();
    await openDashboard();
    act(() =>
      socket.serverEmit('bot-error', { message: 'Kick refused the message', timestamp: '2025-01-01T00:00:00Z' }),
    );
    expect(screen.getByText('Kick refused the message').closest('.toast')).toHaveClass('toast-error');
  });

  test('when chat arrives on the socket, then Live Chat counts and shows it, the bot reply once', async () => {
    const user = userEvent.setup();
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    serveDashboard();
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Live Chat' }));
    expect(screen.getByText('No messages yet. Start the bot and begin chatting!')).toBeInTheDocument();

    act(() => {
      socket.serverEmit('chat-message', aChatMessage({ id: 'v1', username: 'viewer_alice', content: '$test' }));
      socket.serverEmit('message-sent', {
        content: 'Hello!',
        timestamp: '2025-03-01T20:00:01.000Z',
        replyTo: 'viewer_alice',
      });
      socket.serverEmit(
        'chat-message',
        aChatMessage({
          id: 'b1',
          username: 'Kickstand',
          isBot: true,
          content: 'Hello!',
          timestamp: '2025-03-01T20:00:01.000Z',
          replyTo: 'viewer_alice',
        }),
      );
    });
    expect(screen.getByTestId('message-count')).toHaveTextContent('2 messages');
    const lines = screen.getAllByTestId('chat-line');
    expect(lines[1]).toHaveTextContent('Replying to @viewer_alice');
    expect(lines[1]).toHaveTextContent('@Kickstand');
  });

  test('when KICKs are gifted and a reward redeemed on the socket, then Live Chat shows event lines, not counted as messages', async () => {
    const user = userEvent.setup();
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    serveDashboard();
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Live Chat' }));

    act(() => {
      socket.serverEmit('chat-message', aChatMessage({ id: 'v1', timestamp: '2025-03-01T20:00:00.000Z' }));
      socket.serverEmit('channel-event', {
        id: 'event:k1',
        kind: 'kicks-gifted',
        timestamp: '2025-03-01T20:00:01.000Z',
        username: 'generous',
        amount: 100,
        giftName: 'Rage Quit',
        message: 'message',
      });
      socket.serverEmit('channel-event', {
        id: 'event:r1',
        kind: 'reward-redeemed',
        timestamp: '2025-03-01T20:00:02.000Z',
        username: 'viewer',
        reward: 'Reward',
        cost: 300,
        input: 'input',
        status: 'pending',
      });
    });

    expect(screen.getByTestId('message-count')).toHaveTextContent('1 message');
    expect(screen.getAllByTestId('chat-event-line').map((line) => line.textContent)).toEqual([
      expect.stringContaining('🎁 generous gifted 100 KICKs: message'),
      expect.stringContaining('🎯 viewer redeemed Reward (300): input'),
    ]);
  });

  test('when Pop Out Chat is pressed, then /chat-popout opens in a 400x600 window', async () => {
    const user = userEvent.setup();
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    serveDashboard();
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Live Chat' }));
    await user.click(screen.getByRole('button', { name: 'Pop Out Chat' }));
    expect(open).toHaveBeenCalledWith(
      '/chat-popout',
      expect.any(String),
      expect.stringContaining('width=400,height=600'),
    );
    open.mockRestore();
  });

  test('when Exit is pressed, then the token is revoked at auth and removed, and the visitor is back on /', async () => {
    const user = userEvent.setup();
    const server = serveDashboard({ 'POST /api/platform/logout': { status: 204 } });
    const { router } = await openDashboard();
    await user.click(screen.getByRole('button', { name: 'Exit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(window.localStorage.getItem(tokenStorageKey)).toBeNull();
    expect(server.callsTo('POST /api/platform/logout').map((request) => request.headers)).toEqual([
      { authorization: 'Bearer good-token' },
    ]);
    expect(await screen.findByRole('button', { name: 'Get Started Free' })).toBeInTheDocument();
  });

  test('when the Kick Account tab opens on a linked account, then it shows the account, Account Linked and Unlink Account', async () => {
    const user = userEvent.setup();
    const server = serveDashboard({
      'DELETE /api/platform/kick/unlink': fail(500, 'Kick is down'),
    });
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Kick Account' }));
    expect(await screen.findByRole('heading', { name: 'sandbox_streamer' })).toBeInTheDocument();
    expect(screen.getByText('sandbox_streamer@kick.example')).toBeInTheDocument();
    expect(screen.getByText('Account Linked')).toBeInTheDocument();
    expect(screen.getByText(/Linked on/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Unlink Account' }));
    const confirmation = await screen.findByRole('alertdialog', { name: 'Unlink Kick account' });
    expect(confirmation).toHaveTextContent('Unlink @sandbox_streamer? The bot stops and leaves your chat');
    expect(server.callsTo('DELETE /api/platform/kick/unlink')).toHaveLength(0);
    await user.click(within(confirmation).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('Kick is down')).toBeInTheDocument();
    expect(server.callsTo('DELETE /api/platform/kick/unlink')).toHaveLength(1);
  });

  test('when the Kick Account tab opens on a linked account, then the Delivery health card shows below it', async () => {
    const user = userEvent.setup();
    serveDashboard({
      'GET /api/platform/kick/delivery-health': ok({ hasKickAccount: true, health: aHealth() }),
    });
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Kick Account' }));
    expect(await screen.findByRole('heading', { name: 'Delivery health' })).toBeInTheDocument();
    expect(await screen.findByText('Healthy')).toBeInTheDocument();
  });

  test('when the Kick status check fails, then Failed to check Kick account status', async () => {
    const user = userEvent.setup();
    serveDashboard({ 'GET /api/platform/kick/status': fail(500, 'boom') });
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Kick Account' }));
    expect(await screen.findByText('Failed to check Kick account status')).toBeInTheDocument();
  });
});

describe('a streamer without a linked Kick account', () => {
  const unlinked = () =>
    serveDashboard(
      {
        'GET /api/platform/kick/status': ok({ hasKickAccount: false, kickAccount: null }),
        'POST /api/platform/kick/link': ok({ authUrl: 'http://localhost:3100/oauth/authorize?client_id=x' }),
      },
      aUser(),
    );

  test('when the dashboard opens, then the welcome modal offers Link Kick Account, which goes to the authorization URL', async () => {
    const user = userEvent.setup();
    const goTo = jest.spyOn(browser, 'goTo').mockImplementation(() => undefined);
    unlinked();
    await openDashboard();
    const dialog = await screen.findByRole('dialog', { name: 'Welcome to Kickstand!' });
    await user.click(within(dialog).getByRole('button', { name: 'Link Kick Account' }));
    await waitFor(() => expect(goTo).toHaveBeenCalledWith('http://localhost:3100/oauth/authorize?client_id=x'));
    goTo.mockRestore();
  });

  test('when the welcome modal is closed, then the Setup banner still offers linking and Start Bot waits for a link', async () => {
    const user = userEvent.setup();
    unlinked();
    await openDashboard();
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Link your Kick account', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Bot' })).toBeDisabled();
  });

  test('when starting the link fails, then the server error shows as a toast', async () => {
    const user = userEvent.setup();
    serveDashboard({ 'POST /api/platform/kick/link': fail(503, 'Kick is unavailable') }, aUser());
    await openDashboard();
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Link Kick Account' }));
    expect(await screen.findByText('Kick is unavailable')).toBeInTheDocument();
  });

  test('when the Kick Account tab opens, then a card offers Link Kick Account', async () => {
    const user = userEvent.setup();
    unlinked();
    await openDashboard();
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('tab', { name: 'Kick Account' }));
    expect(await screen.findByRole('heading', { name: 'Link your Kick account' })).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Link Kick Account' })).toBeInTheDocument();
  });

  test('when the dashboard opens, then the bot card says why the bot cannot listen and offers to link', async () => {
    const user = userEvent.setup();
    unlinked();
    await openDashboard();
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(await screen.findByTestId('bot-reason')).toHaveTextContent(
      'Link your Kick account so the bot can join your chat.',
    );
  });
});

describe('a super admin on /dashboard', () => {
  test('when the dashboard opens, then only Admin Dashboard shows and after 100 ms a full page load goes to /admin/dashboard', async () => {
    const goTo = jest.spyOn(browser, 'goTo').mockImplementation(() => undefined);
    const server = serveDashboard({}, aUser({ role: 'SUPER_ADMIN', username: 'admin' }));
    await openDashboard();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Admin Dashboard']);
    await waitFor(() => expect(goTo).toHaveBeenCalledWith('/admin/dashboard'));
    // spec §6: no bot status or command loading for a super admin
    expect(server.callsTo('GET /api/platform/bot/status')).toHaveLength(0);
    expect(server.callsTo('GET /api/commands')).toHaveLength(0);
    goTo.mockRestore();
  });
});

describe('the chat popout', () => {
  test('when the socket connects and drops, then the dot is green and then red', async () => {
    const socket = new FakeSocket();
    socket.isAutoConnecting = false;
    setSocket(socket.asSocket());
    serveDashboard();
    window.localStorage.setItem(tokenStorageKey, 'good-token');
    renderApp('/chat-popout');
    const dot = await screen.findByTestId('connection-dot', {}, { timeout: 3000 });
    expect(dot).toHaveAccessibleName('Disconnected');
    act(() => socket.serverConnect());
    expect(dot).toHaveAccessibleName('Connected');
    expect(dot).toHaveClass('connection-on');
    act(() => socket.serverDisconnect());
    expect(dot).toHaveClass('connection-off');
    expect(screen.getByText('No messages yet. Start the bot and begin chatting!')).toBeInTheDocument();
  });
});

describe('session expiry while the dashboard is open (spec §4)', () => {
  test('when the stored token is corrupted and the next call answers 401, then the warning shows and the sign-in dialog opens over the page', async () => {
    const user = userEvent.setup();
    const server = serveDashboard();
    const { router } = await openDashboard();
    window.localStorage.setItem(tokenStorageKey, 'corrupted');
    server.routes['GET /api/platform/kick/status'] = (request) =>
      request.headers.authorization === 'Bearer corrupted' ? fail(401, 'Unauthorized') : ok(null);
    await user.click(screen.getByRole('tab', { name: 'Kick Account' }));
    expect(await screen.findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Sign in again' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(window.localStorage.getItem(tokenStorageKey)).toBeNull();
  });

  test('when a command is being saved as the session expires, then the form keeps it, the user signs in over the page and the save goes through', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    const server = serveDashboard({
      'POST /api/commands': (request) => {
        if (request.headers.authorization !== 'Bearer fresh-token') return fail(401, 'Unauthorized');
        saved.push(request.body);
        return ok(request.body, {}, 201);
      },
      'POST /api/platform/login': ok({ user: aUser({ kickAccount: aKickAccount() }), token: 'fresh-token' }),
    });
    await openDashboard();
    await user.click(screen.getByRole('tab', { name: 'Commands' }));
    await user.click(await screen.findByRole('button', { name: 'Add Command' }));
    await user.type(screen.getByLabelText('Command name'), 'hug');
    await user.type(screen.getByLabelText('Response'), 'hugs {{user}');
    await user.click(screen.getByRole('button', { name: 'Save Command' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    expect(screen.getByLabelText('Command name', { selector: 'input' })).toHaveValue('hug');
    await user.type(within(dialog).getByLabelText('Email'), 'streamer1@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'Abcdefg1!');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(saved).toEqual([{ command: 'hug', response: 'hugs {user}' }]));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sign in again' })).toBeNull());
    expect(server.callsTo('POST /api/commands')).toHaveLength(2);
    const messages = screen.queryAllByRole('status').map((toast) => toast.textContent);
    expect(messages.some((text) => /Failed/.test(text ?? ''))).toBe(false);
  });
});

describe('the loading splash after login (spec §2)', () => {
  test('when a user with a linked account logs in, then the 4-step progress splash shows before the dashboard', async () => {
    const user = userEvent.setup();
    serveDashboard({
      'POST /api/platform/login': ok({ user: aUser({ kickAccount: aKickAccount() }), token: 'login-token' }),
    });
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    const dialog = await screen.findByRole('dialog'); // the sign-in forms are a lazy chunk
    await user.type(within(dialog).getByLabelText('Email'), 'streamer1@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'Abcdefg1!');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));

    const splash = await screen.findByRole('status', { name: 'Loading dashboard' });
    const steps = within(splash).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      'Authenticating user',
      'Connecting to server',
      'Loading bot status',
      'Initializing dashboard',
    ]);
    expect(steps.map((step) => step.dataset.state)).toEqual(['active', 'pending', 'pending', 'pending']);
    await waitFor(() => expect(steps[1]).toHaveAttribute('data-state', 'active'), { timeout: 2000 });
    expect(steps[0]).toHaveAttribute('data-state', 'completed');
  });
});
