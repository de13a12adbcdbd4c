import { explainNotListening } from './not-listening';

describe('explainNotListening', () => {
  test.each([
    ['deactivated', 'Your account is deactivated, so the bot cannot listen.', 'contact-admin'],
    ['not-linked', 'Link your Kick account so the bot can join your chat.', 'link'],
    [
      'needs-relink',
      'Kick no longer accepts your account’s sign-in (it expired or was revoked). Link your Kick account again.',
      'relink',
    ],
    ['disabled-by-admin', 'An administrator disabled your bot.', 'contact-admin'],
    [
      'unsubscribed-by-admin',
      'An administrator removed the bot’s chat subscription, so the bot hears nothing.',
      'reconnect',
    ],
    ['subscription-lost', 'Kick stopped sending your chat to the bot.', 'reconnect'],
    ['connecting', 'Connecting to your Kick chat…', null],
  ] as const)('when the reason is %s, then it says %p and offers %p', (reason, message, action) => {
    expect(explainNotListening(reason)).toEqual({ message, action });
  });

  test('when the subscription failed, then the server’s words are shown and Reconnect offered', () => {
    expect(explainNotListening('subscription-failed', { error: 'Kick said 403' })).toEqual({
      message: 'The bot could not subscribe to your Kick chat: Kick said 403',
      action: 'reconnect',
    });
    expect(explainNotListening('subscription-failed')?.message).toBe('The bot could not subscribe to your Kick chat.');
  });

  test('when the bot listens or is simply stopped, then there is nothing to explain', () => {
    expect(explainNotListening(null)).toBeNull();
    expect(explainNotListening('stopped')).toBeNull();
  });

  test('when the bot listens but Kick refused its last reply, then that refusal is the explanation', () => {
    expect(explainNotListening(null, { replyError: 'Kick refused the message: banned' })).toEqual({
      message: 'Kick refuses the bot’s replies: Kick refused the message: banned',
      action: 'contact-admin',
    });
  });
});
