import { eventMessageDefaults, eventMessageKinds, eventMessageVariables } from '@kickstand/api-contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { EventMessage } from '../event-messages-api';
import EventMessagesSection from './event-messages-section';

const defaults = (): EventMessage[] =>
  eventMessageKinds.map((kind) => ({
    kind,
    ...eventMessageDefaults[kind],
    variables: [...eventMessageVariables[kind]],
    defaultTemplate: eventMessageDefaults[kind].template,
  }));

function serve(
  stream = { isLive: true, title: 'ranked grind', game: 'Dota 2', startedAt: '2026-03-02T18:00:00.000Z' },
) {
  const list = defaults();
  return installFakeFetch({
    'GET /api/event-messages': () => ok(list),
    'PUT /api/event-messages': (request) => {
      for (const [kind, setting] of Object.entries(request.body as Record<string, EventMessage>)) {
        const index = list.findIndex((message) => message.kind === kind);
        list[index] = { ...list[index]!, ...setting };
      }
      return ok(list);
    },
    'GET /api/stream': () => ok(stream),
  });
}

describe('Event messages section', () => {
  test('when it loads, then the live card shows the stream and every message its switch and variables', async () => {
    serve();
    renderWithProviders(<EventMessagesSection />);

    expect(await screen.findByText('ranked grind')).toBeInTheDocument();
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(screen.getByText('Dota 2')).toBeInTheDocument();
    expect(await screen.findByLabelText('Follow')).toHaveValue('Thanks for the follow, {user}!');
    expect(screen.getByRole('checkbox', { name: 'Follow message on' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Go-live message on' })).not.toBeChecked();
    // a new subscription and a renewal
    expect(screen.getAllByText('Variables: {user} {months}')).toHaveLength(2);
  });

  test('when a template is edited and saved, then only that kind is sent, with its switch', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderWithProviders(<EventMessagesSection />);
    const field = await screen.findByLabelText('Kicks gifted');

    await user.clear(field);
    await user.type(field, 'Wow {{user}!');
    await user.click(screen.getByRole('button', { name: 'Save kicks gifted message' }));

    // Saving remounts the row (its key is the saved template), so the element a finder returns may
    // already be detached when asserted on: wait for the save's toast, then for the refetched row,
    // whose Save button is off because its field holds what the server has.
    expect(await screen.findByText('Kicks gifted message saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save kicks gifted message' })).toBeDisabled());
    expect(screen.getByLabelText('Kicks gifted')).toHaveValue('Wow {user}!');
    expect(server.callsTo('PUT /api/event-messages').map((request) => request.body)).toEqual([
      { kicks: { enabled: false, template: 'Wow {user}!' } },
    ]);
  });
});
