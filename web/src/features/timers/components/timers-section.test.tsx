import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { Timer } from '../timers-api';
import { CountersSection } from './counters-section';
import { TimersSection } from './timers-section';

const follow: Timer = {
  id: 't1',
  message: 'Follow the channel!',
  intervalMinutes: 15,
  minChatLines: 5,
  enabled: true,
  createdAt: '2026-03-02T18:00:00.000Z',
  lastPostedAt: null,
};

function serve(timers: Timer[] = [follow]) {
  const list = [...timers];
  return installFakeFetch({
    'GET /api/timers': () => ok([...list]),
    'POST /api/timers': (request) => {
      const added = { ...follow, id: `t${list.length + 1}`, ...(request.body as object) };
      list.push(added);
      return ok(added, {}, 201);
    },
    'PUT /api/timers/t1': (request) => {
      list[0] = { ...follow, ...(request.body as object) };
      return ok(list[0]);
    },
    'POST /api/timers/t1/toggle': (request) => {
      list[0] = { ...follow, ...(request.body as object) };
      return ok(list[0]);
    },
    'DELETE /api/timers/t1': () => {
      list.splice(0, 1);
      return ok({ id: 't1' });
    },
  });
}

describe('Timers section', () => {
  test('when timers load, then each shows its message, schedule and switch', async () => {
    serve();
    renderWithProviders(<TimersSection />);

    expect(await screen.findByText('Follow the channel!')).toBeInTheDocument();
    expect(screen.getByText('Every 15 min, after 5 chat lines')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Enabled: Follow the channel!' })).toBeChecked();
  });

  test('when there are none, then No timers yet shows', async () => {
    serve([]);
    renderWithProviders(<TimersSection />);

    expect(await screen.findByText('No timers yet.')).toBeInTheDocument();
  });

  test('when a timer is added, then it is sent with its numbers and listed', async () => {
    const server = serve([]);
    const user = userEvent.setup();
    renderWithProviders(<TimersSection />);
    await screen.findByText('No timers yet.');

    await user.click(screen.getByRole('button', { name: 'Add Timer' }));
    await user.type(screen.getByLabelText('Message'), 'Hydrate!');
    await user.clear(screen.getByLabelText('Every (minutes)'));
    await user.type(screen.getByLabelText('Every (minutes)'), '20');
    await user.clear(screen.getByLabelText('Minimum chat lines'));
    await user.type(screen.getByLabelText('Minimum chat lines'), '0');
    await user.click(screen.getByRole('button', { name: 'Save Timer' }));

    expect(await screen.findByText('Hydrate!')).toBeInTheDocument();
    expect(screen.getByText('Every 20 min')).toBeInTheDocument();
    expect(server.callsTo('POST /api/timers').map((request) => request.body)).toEqual([
      { message: 'Hydrate!', intervalMinutes: 20, minChatLines: 0 },
    ]);
  });

  test('when the interval is under 5 minutes, then the form says so and sends nothing', async () => {
    const server = serve([]);
    const user = userEvent.setup();
    renderWithProviders(<TimersSection />);
    await screen.findByText('No timers yet.');

    await user.click(screen.getByRole('button', { name: 'Add Timer' }));
    await user.type(screen.getByLabelText('Message'), 'Too often');
    await user.clear(screen.getByLabelText('Every (minutes)'));
    await user.type(screen.getByLabelText('Every (minutes)'), '4');
    await user.click(screen.getByRole('button', { name: 'Save Timer' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The interval is a whole number of minutes from 5 to 1440.',
    );
    expect(server.callsTo('POST /api/timers')).toEqual([]);
  });

  test('when the server refuses, then its message shows in the form', async () => {
    const server = serve([]);
    server.routes['POST /api/timers'] = fail(409, 'You can have at most 50 timers. Delete one to add another.');
    const user = userEvent.setup();
    renderWithProviders(<TimersSection />);
    await screen.findByText('No timers yet.');

    await user.click(screen.getByRole('button', { name: 'Add Timer' }));
    await user.type(screen.getByLabelText('Message'), 'One more');
    await user.click(screen.getByRole('button', { name: 'Save Timer' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You can have at most 50 timers. Delete one to add another.',
    );
  });

  test('when a timer is edited, then the changes are saved in place', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderWithProviders(<TimersSection />);
    await user.click(await screen.findByRole('button', { name: 'Edit timer: Follow the channel!' }));

    const message = screen.getByLabelText('Message');
    await user.clear(message);
    await user.type(message, 'Follow us!');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Follow us!')).toBeInTheDocument();
    expect(server.callsTo('PUT /api/timers/t1').map((request) => request.body)).toEqual([
      { message: 'Follow us!', intervalMinutes: 15, minChatLines: 5, enabled: true },
    ]);
  });

  test('when the switch is turned off, then the timer is disabled', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderWithProviders(<TimersSection />);

    await user.click(await screen.findByRole('checkbox', { name: 'Enabled: Follow the channel!' }));

    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Enabled: Follow the channel!' })).not.toBeChecked(),
    );
    expect(server.callsTo('POST /api/timers/t1/toggle').map((request) => request.body)).toEqual([{ enabled: false }]);
  });

  test('when a timer is deleted, then it leaves the list', async () => {
    serve();
    const user = userEvent.setup();
    renderWithProviders(<TimersSection />);

    await user.click(await screen.findByRole('button', { name: 'Delete timer: Follow the channel!' }));

    expect(await screen.findByText('No timers yet.')).toBeInTheDocument();
  });
});

describe('Counters section', () => {
  test('when counters load, then each shows its value; Reset and Delete call their routes', async () => {
    const server = installFakeFetch({
      'GET /api/counters': ok([{ name: 'deaths', value: 7, updatedAt: '2026-03-02T18:00:00.000Z' }]),
      'POST /api/counters/deaths/reset': ok({ name: 'deaths', value: 0, updatedAt: '2026-03-02T18:00:00.000Z' }),
      'DELETE /api/counters/deaths': ok({ name: 'deaths' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<CountersSection />);

    const item = (await screen.findByText('deaths')).closest('li');
    expect(item).not.toBeNull();
    expect(within(item as HTMLElement).getByText('7')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset deaths' }));
    await user.click(screen.getByRole('button', { name: 'Delete deaths' }));

    await waitFor(() => expect(server.callsTo('DELETE /api/counters/deaths')).toHaveLength(1));
    expect(server.callsTo('POST /api/counters/deaths/reset')).toHaveLength(1);
  });

  test('when a counter is set, then its name and value are sent; a bad name is refused before sending, a refusal shows its message', async () => {
    const server = installFakeFetch({
      'GET /api/counters': ok([]),
      'PUT /api/counters/wins': ok({ name: 'wins', value: 3, updatedAt: '2026-03-02T18:00:00.000Z' }),
      'PUT /api/counters/big': fail(400, "A counter's value is a whole number from -1000000000 to 1000000000."),
    });
    const user = userEvent.setup();
    renderWithProviders(<CountersSection />);

    await user.type(screen.getByLabelText('Counter name'), 'wins');
    await user.clear(screen.getByLabelText('Value'));
    await user.type(screen.getByLabelText('Value'), '3');
    await user.click(screen.getByRole('button', { name: 'Set Counter' }));
    await waitFor(() => expect(server.callsTo('PUT /api/counters/wins').map((r) => r.body)).toEqual([{ value: 3 }]));

    await user.type(screen.getByLabelText('Counter name'), 'bad name');
    await user.click(screen.getByRole('button', { name: 'Set Counter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A counter name is 1 to 30 letters, digits, hyphens or underscores.',
    );
    expect(server.requests.filter((request) => request.method === 'PUT')).toHaveLength(1);

    await user.clear(screen.getByLabelText('Counter name'));
    await user.type(screen.getByLabelText('Counter name'), 'big');
    await user.clear(screen.getByLabelText('Value'));
    await user.type(screen.getByLabelText('Value'), '9999999999');
    await user.click(screen.getByRole('button', { name: 'Set Counter' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        "A counter's value is a whole number from -1000000000 to 1000000000.",
      ),
    );
  });
});
