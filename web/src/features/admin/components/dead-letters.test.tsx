import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok, type FakeResponse } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { DeadLetter } from '../admin-api';
import { DeadLetters } from './dead-letters';

const path = '/api/admin/kick/dead-letters';

const aLetter = (id: string, overrides: Partial<DeadLetter> = {}): DeadLetter => ({
  id,
  eventType: 'channel.hype_train.started',
  eventVersion: '1',
  broadcasterUserId: '4377088',
  reason: 'unknown-type: channel.hype_train.started',
  receivedAt: '2026-03-02T18:04:11.000Z',
  sentAt: '2026-03-02T18:04:11.000Z',
  replayedAt: null,
  headers: { 'Kick-Event-Message-Id': id, 'Kick-Event-Type': 'channel.hype_train.started' },
  body: '{"broadcaster":{"user_id":4377088},"level":3}',
  ...overrides,
});

/** A fake kick-link holding `letters` (newest first); replay answers with `replayAnswer`. */
function serve(
  letters: DeadLetter[],
  replayAnswer: () => FakeResponse = () => ok({ result: 'published' }, { message: 'Delivery replayed' }),
) {
  const kept = [...letters];
  const server = installFakeFetch({
    [`GET ${path}`]: () =>
      ok({ deadLetters: [...kept], pagination: { page: 1, limit: 20, total: kept.length, pages: 1 } }),
  });
  for (const letter of letters) {
    server.routes[`POST ${path}/${letter.id}/replay`] = () => {
      const answer = replayAnswer();
      if (answer.status === 200) kept.splice(kept.indexOf(letter), 1);
      return answer;
    };
    server.routes[`DELETE ${path}/${letter.id}`] = () => {
      kept.splice(kept.indexOf(letter), 1);
      return ok(undefined, { message: 'Dead letter discarded' });
    };
  }
  return server;
}

const rows = () => screen.queryAllByTestId('dead-letter-row');

describe('dead letters on the webhook page', () => {
  test('when it opens, then page 1 of 20 is asked for and each letter shows type, channel, reason and time, newest first', async () => {
    const server = serve([
      aLetter('01NEWER', {
        eventType: 'chat.message.sent',
        eventVersion: '2',
        reason: 'unknown-version: chat.message.sent version 2',
      }),
      aLetter('01OLDER', { broadcasterUserId: null, reason: 'not-json: the body is not JSON' }),
    ]);

    renderWithProviders(<DeadLetters />);

    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(server.callsTo(`GET ${path}`)[0]?.query).toEqual({ page: '1', limit: '20' });
    expect(rows().map((row) => row.dataset.id)).toEqual(['01NEWER', '01OLDER']);
    expect(rows()[0]).toHaveTextContent('chat.message.sent v2');
    expect(rows()[0]).toHaveTextContent('4377088');
    expect(rows()[0]).toHaveTextContent('unknown-version: chat.message.sent version 2');
    expect(within(rows()[0] as HTMLElement).getByText((_, element) => element?.tagName === 'TIME')).toHaveAttribute(
      'datetime',
      '2026-03-02T18:04:11.000Z',
    );
    expect(rows()[1]).toHaveTextContent('—');
    expect(rows()[1]).toHaveTextContent('not-json: the body is not JSON');
    expect(screen.getByText(/newest first \(2\)/)).toBeInTheDocument();
  });

  test('when Replay is pressed and the delivery is used, then the replay is asked for, the toast shows and the list reloads without it', async () => {
    const user = userEvent.setup();
    const server = serve([aLetter('01A'), aLetter('01B')]);
    renderWithProviders(<DeadLetters />);
    await waitFor(() => expect(rows()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Replay channel.hype_train.started 01A' }));

    expect(await screen.findByText('Delivery replayed')).toBeInTheDocument();
    expect(server.callsTo(`POST ${path}/01A/replay`)).toHaveLength(1);
    await waitFor(() => expect(rows().map((row) => row.dataset.id)).toEqual(['01B']));
  });

  test("when a replay still cannot use the delivery, then the server's reason shows as an error and the letter stays", async () => {
    const user = userEvent.setup();
    serve([aLetter('01A')], () =>
      fail(422, 'The delivery still cannot be used: unknown-type: channel.hype_train.started'),
    );
    renderWithProviders(<DeadLetters />);
    await waitFor(() => expect(rows()).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Replay channel.hype_train.started 01A' }));

    const toast = await screen.findByText(
      'The delivery still cannot be used: unknown-type: channel.hype_train.started',
    );
    expect(toast.closest('.toast')).toHaveClass('toast-error');
    expect(rows()).toHaveLength(1);
  });

  test('when Discard is pressed, then the letter is deleted and the list reloads', async () => {
    const user = userEvent.setup();
    const server = serve([aLetter('01A')]);
    renderWithProviders(<DeadLetters />);
    await waitFor(() => expect(rows()).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Discard channel.hype_train.started 01A' }));

    expect(await screen.findByText('Dead letter discarded')).toBeInTheDocument();
    expect(server.callsTo(`DELETE ${path}/01A`)).toHaveLength(1);
    expect(await screen.findByText('No dead letters')).toBeInTheDocument();
  });

  test('when the delivery is opened, then its Kick-Event headers and raw body show', async () => {
    const user = userEvent.setup();
    serve([aLetter('01A')]);
    renderWithProviders(<DeadLetters />);
    await waitFor(() => expect(rows()).toHaveLength(1));

    await user.click(screen.getByText('Delivery'));

    const details = (rows()[0] as HTMLElement).querySelector('pre');
    expect(details?.textContent).toBe(
      'Kick-Event-Message-Id: 01A\nKick-Event-Type: channel.hype_train.started\n\n{"broadcaster":{"user_id":4377088},"level":3}',
    );
  });

  test('when the list cannot be loaded, then the error and a retry show', async () => {
    installFakeFetch({ [`GET ${path}`]: fail(500, 'Internal server error') });
    renderWithProviders(<DeadLetters />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
