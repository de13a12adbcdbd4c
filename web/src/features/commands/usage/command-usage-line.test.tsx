import { defaultCommandSettings } from '@kickstand/api-contract';
import { screen } from '@testing-library/react';
import { installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { CommandList } from '../components/command-list';

describe('usage in the command list', () => {
  test('when the usage loads, then each command shows its 24 h and 7 day runs and its last use or Never used', async () => {
    installFakeFetch({
      'GET /api/commands/usage': ok([
        { command: 'hug', last24Hours: 3, last7Days: 1234, lastUsedAt: '2026-11-25T18:10:00.000Z' },
        { command: 'discord', last24Hours: 0, last7Days: 0, lastUsedAt: null },
      ]),
    });
    renderWithProviders(
      <CommandList
        commands={[
          { command: 'Hug', response: 'hugs', ...defaultCommandSettings },
          { command: 'discord', response: 'join', ...defaultCommandSettings },
        ]}
      />,
    );
    const hug = await screen.findByTestId('usage-Hug');
    expect(hug).toHaveTextContent(/^24 h: 37 days: 1,234Last used /);
    expect(hug.querySelector('time')).toHaveAttribute('dateTime', '2026-11-25T18:10:00.000Z');
    expect(screen.getByTestId('usage-discord')).toHaveTextContent('24 h: 07 days: 0Never used');
  });

  test('when the usage cannot be had, then the list shows without it', async () => {
    installFakeFetch({});
    renderWithProviders(<CommandList commands={[{ command: 'hug', response: 'hugs', ...defaultCommandSettings }]} />);
    expect(await screen.findByText('hugs')).toBeInTheDocument();
    expect(screen.queryByTestId('usage-hug')).not.toBeInTheDocument();
  });
});
