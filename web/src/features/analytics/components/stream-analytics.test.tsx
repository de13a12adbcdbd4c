import type { StreamAnalytics as Report } from '@kickstand/api-contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { pointLabel } from '../time-labels';
import { StreamAnalytics } from './stream-analytics';

const zeros = (length: number) => Array<number>(length).fill(0);

const lastStream: Report = {
  range: 'last-stream',
  from: '2026-03-01T20:00:00.000Z',
  to: '2026-03-01T20:05:00.000Z',
  stepSeconds: 60,
  stream: { startedAt: '2026-03-01T20:00:00.000Z', endedAt: '2026-03-01T20:04:30.000Z', title: 'ranked grind' },
  totals: {
    messages: 32,
    uniqueChatters: 3,
    isChattersCapped: false,
    commands: 2,
    follows: 1,
    subscriptions: 2,
    giftedSubscriptions: 5,
    kicks: 100,
  },
  series: {
    messages: [2, 2, 24, 2, 2],
    commands: [0, 0, 2, 0, 0],
    follows: [1, 0, 0, 0, 0],
    subscriptions: [0, 2, 0, 0, 0],
    giftedSubscriptions: [0, 0, 5, 0, 0],
    kicks: [0, 0, 0, 100, 0],
  },
  topChatters: [
    { username: 'carol', messages: 20 },
    { username: 'alice', messages: 8 },
  ],
  topCommands: [{ command: 'hello', executions: 2 }],
  peaks: [{ at: '2026-03-01T20:02:00.000Z', messages: 24, title: 'boss fight' }],
};

const week: Report = {
  ...lastStream,
  range: '7d',
  from: '2026-02-23T00:00:00.000Z',
  to: '2026-03-02T00:00:00.000Z',
  stepSeconds: 3600,
  stream: null,
  totals: { ...lastStream.totals, messages: 40, uniqueChatters: 5000, isChattersCapped: true },
  series: {
    messages: [...zeros(167), 40],
    commands: zeros(168),
    follows: zeros(168),
    subscriptions: zeros(168),
    giftedSubscriptions: zeros(168),
    kicks: zeros(168),
  },
  peaks: [],
};

describe('GET /api/analytics/stream on the analytics page', () => {
  test('when the last stream loads, then its totals, its chart line with the peak, top lists and peak title show', async () => {
    const server = installFakeFetch({ 'GET /api/analytics/stream': ok(lastStream) });
    renderWithProviders(<StreamAnalytics />);

    expect(await screen.findByTestId('total-messages')).toHaveTextContent('Messages32');
    expect(server.callsTo('GET /api/analytics/stream')[0]?.query).toEqual({ range: 'last-stream' });
    expect(screen.getByTestId('total-chatters')).toHaveTextContent('Unique chatters3');
    expect(screen.getByTestId('total-gifted')).toHaveTextContent('Gifted subs5');
    expect(screen.getByTestId('analytics-stream')).toHaveTextContent('ranked grind');
    expect(
      screen.getByRole('img', { name: 'Chat messages per minute: 32 messages, at most 24 in one minute' }),
    ).toBeInTheDocument();
    const messagesLine = screen.getAllByTestId('chart-line').find((line) => line.dataset.series === 'Messages');
    // five points: one move, four lines
    expect(messagesLine?.getAttribute('d')?.match(/[ML]/g)).toEqual(['M', 'L', 'L', 'L', 'L']);
    expect(screen.getAllByTestId('chart-marker')).toHaveLength(1);
    expect(screen.getAllByTestId('analytics-top-chatter').map((item) => item.textContent)).toEqual([
      'carol20 messages',
      'alice8 messages',
    ]);
    expect(screen.getAllByTestId('analytics-top-command').map((item) => item.textContent)).toEqual(['$hello2 runs']);
    expect(screen.getByTestId('peak')).toHaveTextContent('boss fight');
    expect(screen.getByTestId('peak')).toHaveTextContent('24 messages / minute');
  });

  test('when Show as table is pressed, then every minute’s numbers are in a table, and the button hides it again', async () => {
    installFakeFetch({ 'GET /api/analytics/stream': ok(lastStream) });
    renderWithProviders(<StreamAnalytics />);
    const chart = (await screen.findByRole('heading', { name: 'Chat messages per minute' })).closest('section');
    if (!chart) throw new Error('the chart section');
    const toggle = within(chart).getByRole('button', { name: 'Show as table' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(toggle);

    const table = within(chart).getByRole('table', { name: 'Chat messages per minute' });
    const rows = within(table).getAllByTestId('series-row');
    expect(rows.map((row) => row.textContent)).toEqual(
      [2, 2, 24, 2, 2].map((value, index) => `${pointLabel(Date.parse(lastStream.from) + index * 60_000, 60)}${value}`),
    );
    expect(within(chart).getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(within(chart).getByRole('button', { name: 'Hide table' }));
    expect(within(chart).queryByRole('table')).not.toBeInTheDocument();
  });

  test('when the events table is shown, then follows, subscriptions, gifted subs and Kicks each have a column', async () => {
    installFakeFetch({ 'GET /api/analytics/stream': ok(lastStream) });
    renderWithProviders(<StreamAnalytics />);
    const chart = (await screen.findByRole('heading', { name: 'Follows, subscriptions and gifts' })).closest('section');
    if (!chart) throw new Error('the chart section');
    await userEvent.click(within(chart).getByRole('button', { name: 'Show as table' }));
    const headers = within(chart)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Time', 'Follows', 'Subscriptions', 'Gifted subs', 'Kicks']);
    expect(within(chart).getAllByTestId('series-row')[3]?.textContent).toMatch(/000100$/);
  });

  test('when Last 7 days is chosen, then that range is asked and charted by the hour, capped chatters as at least', async () => {
    const server = installFakeFetch({
      'GET /api/analytics/stream': (request) => ok(request.query.range === '7d' ? week : lastStream),
    });
    renderWithProviders(<StreamAnalytics />);
    await screen.findByTestId('total-messages');

    await userEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));

    expect(await screen.findByRole('heading', { name: 'Chat messages per hour' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/analytics/stream').map((call) => call.query.range)).toEqual(['last-stream', '7d']);
    expect(screen.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('total-chatters')).toHaveTextContent('5,000+');
    expect(screen.getByText('No burst: chat stayed near its usual pace.')).toBeInTheDocument();
  });

  test('when no stream was seen yet, then the last stream says so', async () => {
    installFakeFetch({ 'GET /api/analytics/stream': ok({ ...lastStream, stream: null }) });
    renderWithProviders(<StreamAnalytics />);
    expect(await screen.findByRole('heading', { name: 'No stream seen yet' })).toBeInTheDocument();
  });

  test('when the report cannot be loaded, then the server’s reason and Try again show', async () => {
    installFakeFetch({ 'GET /api/analytics/stream': fail(400, 'range must be one of last-stream, 7d, 30d') });
    renderWithProviders(<StreamAnalytics />);
    expect(await screen.findByRole('alert')).toHaveTextContent('range must be one of last-stream, 7d, 30d');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('GET /api/admin/analytics/stream on the admin’s analytics page', () => {
  test('when every channel’s report loads, then there is no Last stream choice and Last 30 days asks that range', async () => {
    const server = installFakeFetch({
      'GET /api/admin/analytics/stream': (request) =>
        ok(request.query.range === '30d' ? { ...week, range: '30d', stepSeconds: 86_400 } : week),
    });
    renderWithProviders(<StreamAnalytics scope="all" />);

    expect(await screen.findByTestId('total-messages')).toHaveTextContent('Messages40');
    expect(screen.queryByRole('button', { name: 'Last stream' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
    expect(await screen.findByRole('heading', { name: 'Chat messages per day' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/analytics/stream').map((call) => call.query.range)).toEqual(['7d', '30d']);
    expect(server.callsTo('GET /api/analytics/stream')).toEqual([]);
  });
});
