import { screen } from '@testing-library/react';
import { installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { CommandAnalytics } from './command-analytics';

const days = Array.from({ length: 14 }, (_, index) => ({
  date: `2026-02-${String(16 + index).padStart(2, '0')}`.replace('2026-02-29', '2026-03-01'),
  executions: index === 13 ? 7 : index === 10 ? 3 : 0,
}));

describe('GET /api/admin/analytics on the analytics page', () => {
  test('when usage loads, then a bar per day and the top commands show', async () => {
    const server = installFakeFetch({
      'GET /api/admin/analytics': ok({
        days,
        topCommands: [
          { command: 'test', executions: 8 },
          { command: 'hero', executions: 2 },
        ],
        byKind: { custom: 8, builtIn: 2, game: 0 },
      }),
    });
    renderWithProviders(<CommandAnalytics />);
    const bars = await screen.findAllByTestId('usage-bar');
    expect(server.callsTo('GET /api/admin/analytics')[0]?.query).toEqual({ days: '14' });
    expect(bars).toHaveLength(14);
    expect(bars.map((bar) => Number(bar.dataset.executions))).toEqual(days.map((day) => day.executions));
    expect(screen.getByRole('img', { name: /over the last 14 days: 10 in total/ })).toBeInTheDocument();
    expect(screen.getByTestId('usage-total')).toHaveTextContent('10 executions in the last 14 days');
    expect(screen.getByTestId('usage-by-kind')).toHaveTextContent('Custom 8 · Built-in 2 · Games 0');
    expect(screen.getAllByTestId('top-command').map((item) => item.textContent)).toEqual(['$test8', '$hero2']);
  });

  test('when nothing ran, then the top list says so', async () => {
    installFakeFetch({
      'GET /api/admin/analytics': ok({ days: days.map((day) => ({ ...day, executions: 0 })), topCommands: [] }),
    });
    renderWithProviders(<CommandAnalytics />);
    expect(await screen.findByText('No commands have run in the last 14 days.')).toBeInTheDocument();
  });

  test('when the usage cannot be loaded, then Failed to load analytics', async () => {
    installFakeFetch({ 'GET /api/admin/analytics': { status: 500 } });
    renderWithProviders(<CommandAnalytics />);
    expect(await screen.findByText('Failed to load analytics')).toBeInTheDocument();
  });
});
