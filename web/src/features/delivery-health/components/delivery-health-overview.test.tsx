import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok, type RecordedRequest } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { DeliveryHealth } from '../health-api';
import { aHealth } from '../testing';
import { DeliveryHealthOverview } from './delivery-health-overview';

const path = 'GET /api/admin/kick/delivery-health';

const healthy = aHealth({ broadcasterUserId: '1', kickUsername: 'alpha' });
const failing = aHealth({
  broadcasterUserId: '2',
  kickUsername: 'bravo',
  isHealthy: false,
  problems: ['A reply failed in the last hour'],
  replies: {
    'bot-account': { sent: 1, failed: 2, dropped: 1 },
    'streamer-bot': { sent: 0, failed: 0, dropped: 0 },
    'streamer-user': { sent: 0, failed: 0, dropped: 0 },
  },
});

/** A fake kick-link: the two channels, filtered and paged as the query asks (one a page when limit is 1). */
function serve() {
  return installFakeFetch({
    [path]: (request: RecordedRequest) => {
      const all: DeliveryHealth[] = request.query.unhealthy === 'true' ? [failing] : [healthy, failing];
      const page = Number(request.query.page);
      const limit = Number(request.query.limit);
      return ok({
        channels: all.slice((page - 1) * limit, page * limit),
        pagination: { page, limit, total: all.length, pages: Math.ceil(all.length / limit) },
        unattributed: {
          refused: { 'bad-signature': 4, 'stale-timestamp': 1, 'too-large': 0 },
          deadLetters: { count: 2, lastAt: null, lastReason: null },
        },
      });
    },
  });
}

const rows = () => screen.queryAllByTestId('health-row');
const channelOf = (row: HTMLElement) => within(row).getAllByRole('cell')[0]?.textContent;

describe('the admin delivery-health view', () => {
  test('when it opens, then every channel shows with its health, failed replies and the unattributed refusals', async () => {
    const server = serve();

    renderWithProviders(<DeliveryHealthOverview />);

    await screen.findByText('alpha');
    expect(server.callsTo(path)[0]?.query).toEqual({ page: '1', limit: '25', unhealthy: 'false' });
    expect(rows().map(channelOf)).toEqual(['alpha #1', 'bravo #2']);
    const [first, second] = rows();
    expect(within(first as HTMLElement).getByText('Healthy')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText('Unhealthy')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText('A reply failed in the last hour')).toBeInTheDocument();
    expect(within(second as HTMLElement).getAllByRole('cell')[5]).toHaveTextContent('3');
    expect(screen.getByTestId('health-unattributed')).toHaveTextContent(
      'Not attributable to a channel: 5 refused, 2 dead letters',
    );
  });

  test('when "Unhealthy only" is ticked, then only the unhealthy channels are asked for and shown', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderWithProviders(<DeliveryHealthOverview />);
    await screen.findByText('alpha');

    await user.click(screen.getByRole('checkbox', { name: 'Unhealthy only' }));

    await waitFor(() => expect(rows().map(channelOf)).toEqual(['bravo #2']));
    expect(server.callsTo(path).at(-1)?.query).toEqual({ page: '1', limit: '25', unhealthy: 'true' });
  });

  test("when Details is pressed, then the channel's full health opens below its row", async () => {
    serve();
    const user = userEvent.setup();
    renderWithProviders(<DeliveryHealthOverview />);
    await screen.findByText('alpha');

    const [first] = rows();
    await user.click(within(first as HTMLElement).getByRole('button', { name: 'Details' }));

    expect(screen.getByTestId('health-replies')).toHaveTextContent(
      'Streamer account (as bot): 5 sent, 0 failed, 0 dropped',
    );
    expect(within(first as HTMLElement).getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
  });

  test("when loading fails, then the server's error shows with Try again", async () => {
    installFakeFetch({ [path]: fail(403, 'Administrator access required') });

    renderWithProviders(<DeliveryHealthOverview />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Administrator access required');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
