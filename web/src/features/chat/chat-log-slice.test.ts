import { loggedOut } from '../../lib/app-events';
import { aChatMessage } from '../../testing/fixtures';
import {
  botMessageSent,
  channelEventReceived,
  channelEventsReceived,
  chatHistoryReceived,
  chatLineReceived,
  chatLogSlice,
  type ChatLogState,
} from './chat-log-slice';

const reduce = chatLogSlice.reducer;
const empty: ChatLogState = { messages: [], events: [] };

describe('chat log', () => {
  test('when 105 lines arrive, then only the last 100 are kept, oldest first', () => {
    let state = empty;
    const lines = Array.from({ length: 105 }, (_, i) => aChatMessage({ id: `line-${i}` }));
    for (const line of lines) state = reduce(state, chatLineReceived(line));
    expect(state.messages).toHaveLength(100);
    expect(state.messages[0]?.id).toBe('line-5');
    expect(state.messages[99]?.id).toBe('line-104');
  });

  test('when a history of 150 lines arrives, then the last 100 are kept', () => {
    const history = Array.from({ length: 150 }, (_, i) => aChatMessage({ id: `h-${i}` }));
    const state = reduce(empty, chatHistoryReceived(history));
    expect(state.messages.map((m) => m.id)).toEqual(history.slice(50).map((m) => m.id));
  });

  test('when the same line arrives twice, then it is shown once', () => {
    const line = aChatMessage();
    const state = reduce(reduce(empty, chatLineReceived(line)), chatLineReceived(line));
    expect(state.messages).toHaveLength(1);
  });

  test('when history arrives after live lines, then both are kept without duplicates', () => {
    const a = aChatMessage({ id: 'a' });
    const b = aChatMessage({ id: 'b' });
    const c = aChatMessage({ id: 'c' });
    let state = reduce(empty, chatLineReceived(b));
    state = reduce(state, chatLineReceived(c));
    state = reduce(state, chatHistoryReceived([a, b]));
    expect(state.messages.map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });

  test('when a history arrives on reconnect, then it replaces older lines it does not hold', () => {
    const stale = aChatMessage({ id: 'stale', timestamp: '2025-03-01T19:00:00.000Z' });
    const h1 = aChatMessage({ id: 'h1', timestamp: '2025-03-01T20:00:00.000Z' });
    const h2 = aChatMessage({ id: 'h2', timestamp: '2025-03-01T20:01:00.000Z' });
    const state = reduce(reduce(empty, chatLineReceived(stale)), chatHistoryReceived([h1, h2]));
    expect(state.messages.map((m) => m.id)).toEqual(['h1', 'h2']);
  });

  test('when message-sent came first and the history holds the bot line, then it shows once', () => {
    const sent = { content: 'pong', timestamp: '2025-03-01T20:00:00.000Z', replyTo: 'bob' };
    const botLine = aChatMessage({ id: 'bot-9', username: 'Kickstand', isBot: true, ...sent });
    const state = reduce(reduce(empty, botMessageSent(sent)), chatHistoryReceived([botLine]));
    expect(state.messages).toEqual([botLine]);
  });

  test('when the bot line arrives as chat-message and as message-sent, then it shows once', () => {
    const botLine = aChatMessage({
      id: 'bot-1',
      username: 'Kickstand',
      isBot: true,
      content: 'Hello! This is a test command.',
      replyTo: 'viewer_alice',
    });
    const sent = { content: botLine.content, timestamp: botLine.timestamp, replyTo: 'viewer_alice' };

    const chatFirst = reduce(reduce(empty, chatLineReceived(botLine)), botMessageSent(sent));
    expect(chatFirst.messages).toEqual([botLine]);

    const sentFirst = reduce(reduce(empty, botMessageSent(sent)), chatLineReceived(botLine));
    expect(sentFirst.messages).toEqual([botLine]);
  });

  test('when only message-sent arrives, then a bot line shows as Kickstand replying to the viewer', () => {
    const state = reduce(empty, botMessageSent({ content: 'pong', timestamp: '2025-03-01T20:00:00Z', replyTo: 'bob' }));
    expect(state.messages).toEqual([
      expect.objectContaining({ username: 'Kickstand', isBot: true, content: 'pong', replyTo: 'bob' }),
    ]);
  });

  test('when the bot says the same thing twice, minutes apart, then both lines show', () => {
    let state = reduce(empty, botMessageSent({ content: 'pong', timestamp: '2025-03-01T20:00:00Z', replyTo: 'bob' }));
    state = reduce(state, botMessageSent({ content: 'pong', timestamp: '2025-03-01T20:05:00Z', replyTo: 'bob' }));
    expect(state.messages).toHaveLength(2);
  });

  test('when the user logs out, then the log is emptied', () => {
    const state = reduce(reduce(empty, chatLineReceived(aChatMessage())), loggedOut());
    expect(state.messages).toEqual([]);
  });
});

describe('chat log — event lines', () => {
  const follow = (id: string, timestamp = '2025-03-01T20:00:00.000Z') => ({
    id,
    kind: 'followed' as const,
    username: 'new_fan',
    timestamp,
  });

  test('when the same event arrives twice, then it is kept once', () => {
    const state = reduce(reduce(empty, channelEventReceived(follow('e1'))), channelEventReceived(follow('e1')));
    expect(state.events).toEqual([follow('e1')]);
  });

  test('when 105 events arrive, then the last 100 are kept', () => {
    let state = empty;
    for (let i = 0; i < 105; i++) state = reduce(state, channelEventReceived(follow(`e${i}`)));
    expect(state.events).toHaveLength(100);
    expect(state.events[0]?.id).toBe('e5');
  });

  test('when a history arrives, then its events replace older ones and newer live ones stay after it', () => {
    let state = reduce(empty, channelEventReceived(follow('stale', '2025-03-01T19:00:00.000Z')));
    state = reduce(state, channelEventReceived(follow('live', '2025-03-01T20:05:00.000Z')));
    state = reduce(state, channelEventsReceived([follow('h1', '2025-03-01T20:00:00.000Z')]));
    expect(state.events.map((event) => event.id)).toEqual(['h1', 'live']);
  });

  test('when the user logs out, then the event lines go too', () => {
    const state = reduce(reduce(empty, channelEventReceived(follow('e1'))), loggedOut());
    expect(state).toEqual(empty);
  });
});
