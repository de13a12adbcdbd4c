import { act, screen, waitFor } from '@testing-library/react';
import { setSocket } from '../../../lib/socket';
import { FakeSocket } from '../../../testing/fake-socket';
import { installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import type { ChatSenderView } from '../kick-api';
import { BotModeratorHint, ReplySenderLine } from './reply-sender-line';

const asBotAccount: ChatSenderView = {
  kind: 'bot-account',
  kickUsername: 'kickstand_bot',
  isFallback: false,
  botRefusal: '',
  botRetryAt: null,
  lastError: '',
  lastErrorAt: null,
  botAccountUsername: 'kickstand_bot',
};

const asStreamerFallback: ChatSenderView = {
  kind: 'streamer-user',
  kickUsername: 'sandbox_streamer',
  isFallback: true,
  botRefusal: 'Channel not found',
  botRetryAt: '2026-06-02T12:00:00.000Z',
  lastError: '',
  lastErrorAt: null,
  botAccountUsername: null,
};

beforeEach(() => {
  setSocket(new FakeSocket().asSocket());
});

describe('reply sender line', () => {
  test('when a bot account is linked, then the line names it', async () => {
    installFakeFetch({ 'GET /api/platform/kick/chat-sender': ok(asBotAccount) });
    renderWithProviders(<ReplySenderLine hasKickAccount />);

    expect(await screen.findByTestId('reply-sender')).toHaveTextContent('Replies are posted as @kickstand_bot');
  });

  test("when Kick refused the app's bot, then the line names the streamer and says why", async () => {
    installFakeFetch({ 'GET /api/platform/kick/chat-sender': ok(asStreamerFallback) });
    renderWithProviders(<ReplySenderLine hasKickAccount />);

    const line = await screen.findByTestId('reply-sender');
    expect(line).toHaveTextContent('Replies are posted as @sandbox_streamer');
    expect(line).toHaveTextContent(
      'Kick refused the app’s bot in your channel (Channel not found), so replies are posted from your own account',
    );
  });

  test('when a reply fails, then the line is asked for again and shows the reason', async () => {
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    let view = asBotAccount;
    const server = installFakeFetch({ 'GET /api/platform/kick/chat-sender': () => ok(view) });
    renderWithProviders(<ReplySenderLine hasKickAccount />);
    await screen.findByTestId('reply-sender');

    view = { ...asBotAccount, lastError: "Kick's daily chat limit for this app is used up; replies resume tomorrow" };
    act(() => socket.serverEmit('bot-error', { message: 'x', timestamp: '2026-06-01T12:00:00.000Z' }));

    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        "Last reply failed: Kick's daily chat limit for this app is used up; replies resume tomorrow",
      ),
    );
    expect(server.callsTo('GET /api/platform/kick/chat-sender')).toHaveLength(2);

    view = asBotAccount;
    act(() =>
      socket.serverEmit('message-sent', { content: 'ok', timestamp: '2026-06-01T12:01:00.000Z', replyTo: null }),
    );
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  test("when a reply goes out after Kick refused the app's bot, then the line turns to the fallback without a reload", async () => {
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    const asKickBot: ChatSenderView = {
      ...asStreamerFallback,
      kind: 'streamer-bot',
      isFallback: false,
      botRefusal: '',
    };
    let view = asKickBot;
    const server = installFakeFetch({ 'GET /api/platform/kick/chat-sender': () => ok(view) });
    renderWithProviders(<ReplySenderLine hasKickAccount />);
    expect(await screen.findByTestId('reply-sender')).toHaveTextContent('(as Kick’s bot for your channel)');

    view = asStreamerFallback;
    act(() =>
      socket.serverEmit('message-sent', { content: 'ok', timestamp: '2026-06-01T12:01:00.000Z', replyTo: null }),
    );

    await waitFor(() =>
      expect(screen.getByTestId('reply-sender')).toHaveTextContent('so replies are posted from your own account'),
    );
    expect(server.callsTo('GET /api/platform/kick/chat-sender')).toHaveLength(2);
    // while posting as the streamer nothing can change at a sent line: no more asking
    act(() =>
      socket.serverEmit('message-sent', { content: 'ok', timestamp: '2026-06-01T12:01:01.000Z', replyTo: null }),
    );
    expect(server.callsTo('GET /api/platform/kick/chat-sender')).toHaveLength(2);
  });

  test('when no Kick account is linked, then nothing is asked and nothing shown', () => {
    const server = installFakeFetch({ 'GET /api/platform/kick/chat-sender': ok(asBotAccount) });
    renderWithProviders(<ReplySenderLine hasKickAccount={false} />);

    expect(screen.queryByTestId('reply-sender')).toBeNull();
    expect(server.requests).toEqual([]);
  });
});

describe('bot moderator hint', () => {
  test('when a bot account is linked, then the Setup hint says how to make it a moderator', async () => {
    installFakeFetch({ 'GET /api/platform/kick/chat-sender': ok(asBotAccount) });
    renderWithProviders(<BotModeratorHint hasKickAccount />);

    expect(await screen.findByTestId('bot-moderator-hint')).toHaveTextContent(
      'Make @kickstand_bot a moderator of your channel: type /mod kickstand_bot in your chat.',
    );
  });

  test('when replies go out as the streamer, then there is no hint', async () => {
    const server = installFakeFetch({ 'GET /api/platform/kick/chat-sender': ok(asStreamerFallback) });
    renderWithProviders(<BotModeratorHint hasKickAccount />);

    await waitFor(() => expect(server.callsTo('GET /api/platform/kick/chat-sender')).toHaveLength(1));
    expect(screen.queryByTestId('bot-moderator-hint')).toBeNull();
  });
});
