import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browser } from '../../../lib/browser';
import { installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { BotAccount } from '../bot-account-api';
import { BotAccountSection } from './bot-account-section';

const linked: BotAccount = {
  kickUserId: '9000001',
  kickUsername: 'kickstand_bot',
  linkedAt: '2026-06-01T12:00:00.000Z',
  needsRelink: false,
};

afterEach(() => {
  jest.restoreAllMocks();
});

describe('bot account section', () => {
  test('when none is linked, then it says so and Link sends the admin to Kick', async () => {
    const user = userEvent.setup();
    const goTo = jest.spyOn(browser, 'goTo').mockImplementation(() => undefined);
    const server = installFakeFetch({
      'GET /api/admin/bot-account': ok({ botAccount: null }),
      'POST /api/admin/bot-account/link': ok({ authUrl: 'https://id.kick.com/oauth/authorize?state=s' }),
    });
    renderWithProviders(<BotAccountSection />);

    expect(await screen.findByText(/No bot account is linked/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Link bot account' }));

    await waitFor(() => expect(goTo).toHaveBeenCalledWith('https://id.kick.com/oauth/authorize?state=s'));
    expect(server.callsTo('POST /api/admin/bot-account/link')).toHaveLength(1);
  });

  test('when one is linked, then its name shows, and Unlink forgets it', async () => {
    const user = userEvent.setup();
    let account: BotAccount | null = linked;
    const server = installFakeFetch({
      'GET /api/admin/bot-account': () => ok({ botAccount: account }),
      'DELETE /api/admin/bot-account': () => {
        account = null;
        return ok({ botAccount: null }, { message: 'Bot account unlinked' });
      },
    });
    renderWithProviders(<BotAccountSection />);

    await waitFor(() =>
      expect(screen.getByTestId('bot-account')).toHaveTextContent('Replies are posted as @kickstand_bot'),
    );
    await user.click(screen.getByRole('button', { name: 'Unlink' }));

    expect(await screen.findByText(/No bot account is linked/)).toBeInTheDocument();
    expect(server.callsTo('DELETE /api/admin/bot-account')).toHaveLength(1);
  });

  test('when Kick sent the admin back after linking, then the outcome shows', async () => {
    installFakeFetch({ 'GET /api/admin/bot-account': ok({ botAccount: null }) });
    renderWithProviders(<BotAccountSection />, { path: '/admin/webhooks?bot_error=scope' });

    expect(
      await screen.findByText('Kick did not grant chat:write: the bot account was not linked'),
    ).toBeInTheDocument();
  });

  test('when Kick refused its refresh token, then the admin is asked to link it again', async () => {
    installFakeFetch({ 'GET /api/admin/bot-account': ok({ botAccount: { ...linked, needsRelink: true } }) });
    renderWithProviders(<BotAccountSection />);

    await waitFor(() =>
      expect(screen.getByTestId('bot-account')).toHaveTextContent('Kick asks for a new link: link it again'),
    );
  });
});
