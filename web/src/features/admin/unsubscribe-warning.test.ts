import { unsubscribeWarning } from './unsubscribe-warning';

const running = { isRunning: true, kickUsername: 'sandbox_streamer' };

describe('unsubscribeWarning', () => {
  test('when the chat subscription of a running bot goes, then the warning names the bot it deafens', () => {
    expect(
      unsubscribeWarning({ username: 'alice', events: ['chat.message.sent', 'channel.followed'], bot: running }),
    ).toEqual([
      'Remove all event subscriptions of alice?',
      "This deafens the bot in @sandbox_streamer's chat: it stops answering commands until alice reconnects it.",
    ]);
  });

  test('when the bot is stopped or the chat stays, then only the events are named', () => {
    expect(
      unsubscribeWarning({
        username: 'alice',
        events: ['chat.message.sent'],
        bot: { isRunning: false, kickUsername: 'k' },
      }),
    ).toEqual(["Remove alice's chat.message.sent subscription?"]);
    expect(unsubscribeWarning({ username: 'alice', events: ['channel.followed'], bot: running })).toEqual([
      "Remove alice's channel.followed subscription?",
    ]);
  });
});
