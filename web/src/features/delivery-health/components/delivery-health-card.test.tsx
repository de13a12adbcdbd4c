import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { formatWhen } from '../format';
import { aHealth } from '../testing';
import { DeliveryHealthCard } from './delivery-health-card';

const path = 'GET /api/platform/kick/delivery-health';

describe('the Delivery health card', () => {
  test('when the channel is healthy, then it shows Healthy, the subscriptions, the last delivery with its lag and the replies', async () => {
    const server = installFakeFetch({ [path]: ok({ hasKickAccount: true, health: aHealth() }) });

    renderWithProviders(<DeliveryHealthCard />);

    expect(await screen.findByText('Healthy')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Delivery health' })).toBeInTheDocument();
    expect(screen.getByTestId('health-subscriptions')).toHaveTextContent('Present: chat.message.sent, kicks.gifted');
    expect(screen.getByTestId('health-last-delivery')).toHaveTextContent(
      `${formatWhen('2026-11-25T18:01:00.000Z')} · lag 250 ms`,
    );
    expect(screen.getByTestId('health-replies')).toHaveTextContent(
      'Streamer account (as bot): 5 sent, 0 failed, 0 dropped',
    );
    expect(screen.getByTestId('health-kick-error')).toHaveTextContent('none');
    expect(server.callsTo(path)).toHaveLength(1);
  });

  test('when the channel is unhealthy, then the problems, the missing and re-created subscriptions, the failure and the Kick error show', async () => {
    installFakeFetch({
      [path]: ok({
        hasKickAccount: true,
        health: aHealth({
          isHealthy: false,
          problems: ['The chat subscription is missing at Kick', 'A reply failed in the last hour'],
          subscriptions: {
            checkedAt: '2026-11-25T18:00:00.000Z',
            present: ['kicks.gifted'],
            missing: [{ event: 'chat.message.sent', reason: 'event subscription limit reached' }],
            lastRecreatedAt: '2026-11-25T17:50:00.000Z',
            lastRecreatedEvents: ['kicks.gifted'],
            duplicatesRemoved: 1,
          },
          refused: { 'bad-signature': 0, 'stale-timestamp': 3, 'too-large': 0 },
          deadLetters: { count: 2, lastAt: '2026-11-25T17:59:00.000Z', lastReason: 'unknown event type' },
          lastReplyFailure: {
            at: '2026-11-25T17:58:00.000Z',
            sender: 'bot-account',
            result: 'failed',
            error: 'Kick refused the message',
          },
          lastKickError: { at: '2026-11-25T17:57:00.000Z', message: 'Kick could not be reached' },
        }),
      }),
    });

    renderWithProviders(<DeliveryHealthCard />);

    expect(await screen.findByText('Unhealthy')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'The chat subscription is missing at Kick',
      'A reply failed in the last hour',
    ]);
    const subscriptions = screen.getByTestId('health-subscriptions');
    expect(subscriptions).toHaveTextContent('Missing: chat.message.sent (event subscription limit reached)');
    expect(subscriptions).toHaveTextContent(`Re-created kicks.gifted at ${formatWhen('2026-11-25T17:50:00.000Z')}`);
    expect(subscriptions).toHaveTextContent('Duplicates removed: 1');
    expect(screen.getByTestId('health-refused')).toHaveTextContent('Bad signature: 0 · Too old: 3 · Too large: 0');
    expect(screen.getByTestId('health-dead-letters')).toHaveTextContent(
      `2last at ${formatWhen('2026-11-25T17:59:00.000Z')}: unknown event type`,
    );
    expect(screen.getByTestId('health-replies')).toHaveTextContent('Kick refused the message');
    expect(screen.getByTestId('health-kick-error')).toHaveTextContent('Kick could not be reached');
  });

  test('when nothing was checked or received yet, then it says so', async () => {
    installFakeFetch({
      [path]: ok({
        hasKickAccount: true,
        health: aHealth({
          subscriptions: null,
          live: null,
          deliveries: { accepted: 0, lastReceivedAt: null, lastSentAt: null, lastLagMs: null },
        }),
      }),
    });

    renderWithProviders(<DeliveryHealthCard />);

    expect(await screen.findByText('Nothing received yet')).toBeInTheDocument();
    expect(screen.getByTestId('health-subscriptions')).toHaveTextContent('Not checked yet');
  });

  test('when loading fails, then the error shows with a Retry that asks again', async () => {
    const server = installFakeFetch({ [path]: fail(500, 'boom') });
    const user = userEvent.setup();
    renderWithProviders(<DeliveryHealthCard />);

    expect(await screen.findByRole('alert')).toHaveTextContent('boom');
    server.routes[path] = ok({ hasKickAccount: true, health: aHealth() });
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Healthy')).toBeInTheDocument();
  });
});
