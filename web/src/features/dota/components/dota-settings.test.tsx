import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { DotaSettings } from './dota-settings';

describe('Dota 2 setting (GET/PUT /api/games/settings)', () => {
  test('when the saved id loads and a new one is saved, then PUT sends it and a success toast shows', async () => {
    const user = userEvent.setup();
    const server = installFakeFetch({
      'GET /api/games/settings': ok({ steamAccountId: 70388657 }),
      'PUT /api/games/settings': ok({ steamAccountId: 123 }),
    });
    renderWithProviders(<DotaSettings />);
    const input = screen.getByLabelText('Steam account ID');
    await waitFor(() => expect(input).toHaveValue('70388657'));
    await user.clear(input);
    await user.type(input, '123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Dota 2 settings saved!')).toBeInTheDocument();
    expect(server.callsTo('PUT /api/games/settings')[0]?.body).toEqual({ steamAccountId: '123' });
  });

  test('when the field is emptied, then null clears the setting', async () => {
    const user = userEvent.setup();
    const server = installFakeFetch({
      'GET /api/games/settings': ok({ steamAccountId: 5 }),
      'PUT /api/games/settings': ok({ steamAccountId: null }),
    });
    renderWithProviders(<DotaSettings />);
    const input = screen.getByLabelText('Steam account ID');
    await waitFor(() => expect(input).toHaveValue('5'));
    await user.clear(input);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('PUT /api/games/settings')[0]?.body).toEqual({ steamAccountId: null }));
  });

  test('when the id is not a number, then Save is off and the hint says why; a server error is a toast', async () => {
    const user = userEvent.setup();
    installFakeFetch({
      'GET /api/games/settings': ok({ steamAccountId: null }),
      'PUT /api/games/settings': fail(400, 'steamAccountId must be a Steam account id'),
    });
    renderWithProviders(<DotaSettings />);
    const input = screen.getByLabelText('Steam account ID');
    await waitFor(() => expect(input).toBeEnabled());
    await user.type(input, 'abc');
    expect(screen.getByText('The Steam account ID is a number, e.g. 123456789.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(input);
    await user.type(input, '99999999999999999999');
    // digits, but neither a 32-bit account id nor a 64-bit SteamID: the contract's check refuses it too
    expect(screen.getByText('The Steam account ID is a number, e.g. 123456789.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '70388657');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('steamAccountId must be a Steam account id')).toBeInTheDocument();
  });
});
