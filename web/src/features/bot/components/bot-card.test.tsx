import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { BotStatus } from '../bot-api';
import { BotCard } from './bot-card';

const aStatus = (overrides: Partial<BotStatus> = {}): BotStatus => ({
  isRunning: true,
  isConnected: false,
  connected: false,
  status: 'disconnected',
  commands: 2,
  notListeningReason: null,
  error: '',
  ...overrides,
});

describe('BotCard', () => {
  test('when an administrator removed the chat subscription, then the card says so and Reconnect starts the bot again', async () => {
    const server = installFakeFetch({ 'POST /api/platform/bot/start': ok(aStatus()) });
    const user = userEvent.setup();
    renderWithProviders(
      <BotCard
        status={aStatus({ notListeningReason: 'unsubscribed-by-admin' })}
        isLoading={false}
        hasKickAccount
        onLink={jest.fn()}
      />,
    );

    expect(screen.getByTestId('bot-reason')).toHaveTextContent(
      'An administrator removed the bot’s chat subscription, so the bot hears nothing.',
    );
    await user.click(screen.getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(server.callsTo('POST /api/platform/bot/start')).toHaveLength(1));
  });

  test('when Kick refused the tokens, then the card asks to link again and the button starts linking', async () => {
    installFakeFetch();
    const onLink = jest.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <BotCard
        status={aStatus({ isRunning: false, notListeningReason: 'needs-relink' })}
        isLoading={false}
        hasKickAccount
        onLink={onLink}
      />,
    );

    await user.click(screen.getByRole('button', { name: 'Link Kick Account again' }));
    expect(onLink).toHaveBeenCalledTimes(1);
  });

  test('when the administrator disabled the bot, then the fix is a mail to the administrator', () => {
    installFakeFetch();
    renderWithProviders(
      <BotCard
        status={aStatus({ isRunning: false, notListeningReason: 'disabled-by-admin' })}
        isLoading={false}
        hasKickAccount
        onLink={jest.fn()}
      />,
    );
    expect(screen.getByRole('link', { name: 'Contact the administrator' })).toHaveAttribute(
      'href',
      'mailto:ideas@kickstand.example?subject=My%20Kickstand%20bot',
    );
  });

  test('when the bot listens, then there is no explanation', () => {
    installFakeFetch();
    renderWithProviders(
      <BotCard
        status={aStatus({ isConnected: true, connected: true, status: 'connected' })}
        isLoading={false}
        hasKickAccount
        onLink={jest.fn()}
      />,
    );
    expect(screen.getByTestId('bot-connection')).toHaveTextContent('Connected to chat · 2 commands');
    expect(screen.queryByTestId('bot-reason')).toBeNull();
  });
});
