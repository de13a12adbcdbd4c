import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { subscribableEvents } from '../../../config/constants';
import { fail, installFakeFetch, ok, type FakeResponse } from '../../../testing/fake-fetch';
import { aKickAccount, aUser } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { Subscription } from '../admin-api';
import { WebhookSubscriptions } from './webhook-subscriptions';

const streamer = aUser({ id: 'u1', username: 'streamer1', kickAccount: aKickAccount('sandbox_streamer') });
const base = '/api/admin/users/u1/webhooks';

/** A fake kick-link: the user's subscriptions, changed by the calls. */
function serve({ initial = [] as Subscription[], userPages = 1, isBotRunning = false } = {}) {
  let next = initial.length + 1;
  const subscriptions = [...initial];
  const add = (event: string) => {
    if (!subscriptions.some((subscription) => subscription.event === event)) {
      subscriptions.push({ id: `s${next++}`, event, status: 'active' });
    }
  };
  const server = installFakeFetch({
    'GET /api/admin/users': (request) =>
      ok({
        users:
          request.query.page === '2'
            ? [aUser({ id: 'u2', username: 'second', kickAccount: aKickAccount('k2') })]
            : [streamer],
        pagination: { page: Number(request.query.page), limit: 20, total: userPages * 20, pages: userPages },
      }),
    [`GET ${base}`]: () =>
      ok({ subscriptions: [...subscriptions], bot: { isRunning: isBotRunning, kickUsername: 'sandbox_streamer' } }),
    [`POST ${base}`]: (request) => {
      add((request.body as { event: string }).event);
      return ok({ subscriptions }, { message: 'Subscribed successfully' });
    },
    [`POST ${base}/subscribe-batch`]: (request) => {
      (request.body as { events: string[] }).events.forEach(add);
      return ok({ subscriptions }, { message: 'Subscribed to selected events' });
    },
    [`POST ${base}/subscribe-all`]: () => {
      subscribableEvents.forEach(add);
      return ok({ subscriptions }, { message: 'Subscribed to all events' });
    },
    [`POST ${base}/unsubscribe-all`]: () => {
      subscriptions.splice(0);
      return ok({ removed: [] }, { message: 'Unsubscribed from all events' });
    },
  });
  for (let id = 1; id <= 20; id += 1) {
    server.routes[`DELETE ${base}/s${id}`] = () => {
      const index = subscriptions.findIndex((subscription) => subscription.id === `s${id}`);
      if (index === -1) return fail(404, 'Subscription not found');
      subscriptions.splice(index, 1);
      return ok({ removed: [] }, { message: 'Unsubscribed successfully' });
    };
  }
  return { server, subscriptions };
}

async function pickStreamer(user: ReturnType<typeof userEvent.setup>) {
  const picker = await screen.findByRole('combobox', { name: 'User' });
  await screen.findByRole('option', { name: 'streamer1 (@sandbox_streamer)' });
  await user.selectOptions(picker, 'u1');
}

const rows = () => screen.queryAllByTestId('subscription-row');
const button = (name: string) => screen.getByRole('button', { name });

/** Presses the confirmation's own button. */
async function confirm(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name }));
}

describe('webhook page', () => {
  test('when it opens, then the picker asks for linked users 20 at a time and chat.message.sent is ticked', async () => {
    const { server } = serve();
    renderWithProviders(<WebhookSubscriptions />);
    await screen.findByRole('option', { name: 'streamer1 (@sandbox_streamer)' });
    expect(server.callsTo('GET /api/admin/users')[0]?.query).toEqual({ page: '1', limit: '20', hasKick: 'true' });
    const boxes = within(screen.getByRole('group', { name: 'Events' })).getAllByRole('checkbox');
    expect(boxes).toHaveLength(8);
    expect(
      boxes.filter((box) => (box as HTMLInputElement).checked).map((box) => box.parentElement?.textContent),
    ).toEqual(['chat.message.sent']);
    expect(screen.getByRole('combobox', { name: 'Event' })).toHaveValue('chat.message.sent');
    // no user yet: nothing to subscribe
    for (const name of ['Subscribe', 'Subscribe Selected', 'Subscribe All', 'Unsubscribe All']) {
      expect(button(name)).toBeDisabled();
    }
  });

  test('when the picker has more pages, then Next asks for the next 20', async () => {
    const user = userEvent.setup();
    const { server } = serve({ userPages: 2 });
    renderWithProviders(<WebhookSubscriptions />);
    const pages = await screen.findByRole('navigation', { name: 'User pages' });
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('option', { name: 'second (@k2)' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/users')[1]?.query).toEqual({ page: '2', limit: '20', hasKick: 'true' });
  });

  test('when a user is picked with no subscriptions, then No subscriptions found', async () => {
    const user = userEvent.setup();
    serve();
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    expect(await screen.findByText('No subscriptions found')).toBeInTheDocument();
  });

  test('when Subscribe is pressed, then the chosen event is sent, the success toast shows and the list reloads', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await screen.findByText('No subscriptions found');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Event' }), 'channel.followed');
    await user.click(button('Subscribe'));

    expect(await screen.findByText('Subscribed successfully')).toBeInTheDocument();
    expect(server.callsTo(`POST ${base}`)[0]?.body).toEqual({ event: 'channel.followed' });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('channel.followed');
  });

  test('when Subscribe Selected is pressed, then the ticked events are sent; with none ticked it is disabled', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await screen.findByText('No subscriptions found');
    const events = screen.getByRole('group', { name: 'Events' });
    await user.click(within(events).getByRole('checkbox', { name: 'moderation.banned' }));
    await user.click(button('Subscribe Selected'));

    expect(await screen.findByText('Subscribed to selected events')).toBeInTheDocument();
    expect(server.callsTo(`POST ${base}/subscribe-batch`)[0]?.body).toEqual({
      events: ['chat.message.sent', 'moderation.banned'],
    });
    await waitFor(() => expect(rows()).toHaveLength(2));

    await user.click(within(events).getByRole('checkbox', { name: 'moderation.banned' }));
    await user.click(within(events).getByRole('checkbox', { name: 'chat.message.sent' }));
    expect(button('Subscribe Selected')).toBeDisabled();
  });

  test('when Subscribe All then Unsubscribe All are pressed, then 8 then none are listed with the spec toasts', async () => {
    const user = userEvent.setup();
    serve();
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await screen.findByText('No subscriptions found');

    await user.click(button('Subscribe All'));
    expect(await screen.findByText('Subscribed to all events')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(8));

    await user.click(button('Unsubscribe All'));
    await confirm(user, 'Unsubscribe All');
    expect(await screen.findByText('Unsubscribed from all events')).toBeInTheDocument();
    expect(await screen.findByText('No subscriptions found')).toBeInTheDocument();
  });

  test('when a row is unsubscribed, then DELETE names it, Unsubscribed successfully shows and the row goes', async () => {
    const user = userEvent.setup();
    const { server } = serve({
      initial: [
        { id: 's1', event: 'chat.message.sent', status: 'active' },
        { id: 's2', event: 'channel.followed', status: 'active' },
      ],
    });
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Unsubscribe channel.followed' }));
    await confirm(user, 'Unsubscribe');
    expect(await screen.findByText('Unsubscribed successfully')).toBeInTheDocument();
    expect(server.callsTo(`DELETE ${base}/s2`)).toHaveLength(1);
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  test('when Unsubscribe All would deafen a running bot, then the confirmation names it; Cancel calls nothing', async () => {
    const user = userEvent.setup();
    const { server } = serve({
      initial: [{ id: 's1', event: 'chat.message.sent', status: 'active' }],
      isBotRunning: true,
    });
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await waitFor(() => expect(rows()).toHaveLength(1));

    await user.click(button('Unsubscribe All'));

    const dialog = await screen.findByRole('alertdialog', { name: 'Unsubscribe from all events' });
    expect(dialog).toHaveTextContent(
      "Remove streamer1's chat.message.sent subscription?This deafens the bot in @sandbox_streamer's chat: it stops answering commands until streamer1 reconnects it.",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(server.callsTo(`POST ${base}/unsubscribe-all`)).toHaveLength(0);
  });

  test('when a call fails, then the server error takes priority, else the spec failure text', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await screen.findByText('No subscriptions found');

    const failures: Array<[string, string, string]> = [
      [`POST ${base}`, 'Subscribe', 'Failed to subscribe'],
      [`POST ${base}/subscribe-batch`, 'Subscribe Selected', 'Failed to subscribe selected events'],
      [`POST ${base}/subscribe-all`, 'Subscribe All', 'Failed to subscribe all'],
      [`POST ${base}/unsubscribe-all`, 'Unsubscribe All', 'Failed to unsubscribe all'],
    ];
    for (const [route, name, text] of failures) {
      server.routes[route] = { status: 502 };
      await user.click(button(name));
      if (name === 'Unsubscribe All') await confirm(user, name);
      expect(await screen.findByText(text)).toBeInTheDocument();
    }
    server.routes[`POST ${base}`] = fail(502, 'event subscription limit reached');
    await user.click(button('Subscribe'));
    expect(await screen.findByText('event subscription limit reached')).toBeInTheDocument();
  });

  test('when unsubscribing one fails, then Failed to unsubscribe; when the list fails, then Failed to load subscriptions', async () => {
    const user = userEvent.setup();
    const { server } = serve({ initial: [{ id: 's1', event: 'chat.message.sent', status: 'active' }] });
    server.routes[`DELETE ${base}/s1`] = { status: 500 };
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe chat.message.sent' }));
    await confirm(user, 'Unsubscribe');
    expect(await screen.findByText('Failed to unsubscribe')).toBeInTheDocument();

    server.routes[`GET ${base}`] = { status: 500 };
    await user.click(button('Subscribe All'));
    expect(await screen.findByText('Failed to load subscriptions')).toBeInTheDocument();
  });

  test('when a request runs, then every button is disabled until it answers', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    let answer: (response: FakeResponse) => void = () => undefined;
    server.routes[`POST ${base}/subscribe-all`] = () =>
      new Promise<FakeResponse>((resolve) => {
        answer = resolve;
      });
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await screen.findByText('No subscriptions found');
    await user.click(button('Subscribe All'));
    for (const name of ['Subscribe', 'Subscribe Selected', 'Subscribe All', 'Unsubscribe All']) {
      expect(button(name)).toBeDisabled();
    }
    await act(async () => answer(ok({}, { message: 'Subscribed to all events' })));
    await waitFor(() => expect(button('Subscribe All')).toBeEnabled());
  });

  test('when 12 subscriptions are listed, then 10 a page; removing the last of page 2 goes back to page 1', async () => {
    const user = userEvent.setup();
    const initial = Array.from({ length: 11 }, (_, index) => ({
      id: `s${index + 1}`,
      event: `${subscribableEvents[index % 8]}#${index + 1}`,
      status: 'active',
    }));
    serve({ initial });
    renderWithProviders(<WebhookSubscriptions />);
    await pickStreamer(user);
    await waitFor(() => expect(rows()).toHaveLength(10));
    const pager = screen.getByRole('navigation', { name: 'Subscription pages' });
    expect(pager).toHaveTextContent('Page 1 of 2');
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(rows()).toHaveLength(1);
    expect(screen.getByRole('navigation', { name: 'Subscription pages' })).toHaveTextContent('Page 2 of 2');

    await user.click(within(rows()[0]!).getByRole('button'));
    await confirm(user, 'Unsubscribe');
    expect(await screen.findByText('Unsubscribed successfully')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.queryByRole('navigation', { name: 'Subscription pages' })).not.toBeInTheDocument();
  });
});
