import { dispatch, renderReply, type ChatLine, type DispatchBot, type DispatchContext } from './dispatch';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

const line = (overrides: Partial<ChatLine> = {}): ChatLine => ({
  messageId: 'm1',
  broadcasterUserId: '42',
  broadcasterUsername: 'channel',
  ownerUserId: 'u1',
  senderUsername: 'viewer',
  senderUserId: '7',
  content: '$Hug @friend',
  isFromBot: false,
  sentAtMs: at(5000).getTime(),
  ...overrides,
});

const runningBot: DispatchBot = {
  isRunning: true,
  broadcasterUserId: '42',
  commands: new Map([
    ['hug', { command: 'Hug', response: '{user} hugs {touser} #{count}' }],
    ['hero', { command: 'hero', response: 'mine' }],
  ]),
};

function context(overrides: Partial<DispatchContext> = {}): DispatchContext {
  return {
    bot: runningBot,
    builtInNames: new Set(['hero', 'game']),
    lastAnsweredAtMs: () => undefined,
    cooldownMs: 1000,
    ...overrides,
  };
}

describe('dispatch', () => {
  test('when a running bot has the command (any letter case), then it is answered with the parsed args', () => {
    expect(dispatch(line(), context())).toEqual({
      kind: 'answer',
      ownerUserId: 'u1',
      commandKey: 'hug',
      command: 'Hug',
      response: '{user} hugs {touser} #{count}',
      args: ['@friend'],
      cooldownKey: '42:hug',
    });
  });

  test.each([
    ['the bot wrote it', line({ isFromBot: true }), context(), 'from-bot'],
    ['it has no message id', line({ messageId: '' }), context(), 'no-message-id'],
    ['it has no owner', line({ ownerUserId: '' }), context(), 'no-owner'],
    ['it is no command', line({ content: 'hug me' }), context(), 'not-a-command'],
    ['the bot is unknown', line(), context({ bot: undefined }), 'bot-not-running'],
    ['the bot is stopped', line(), context({ bot: { ...runningBot, isRunning: false } }), 'bot-not-running'],
    ['the bot runs for another channel', line({ broadcasterUserId: '43' }), context(), 'bot-not-running'],
    ['it is a built-in game command', line({ content: '$HERO axe' }), context(), 'built-in'],
    ['the command is unknown', line({ content: '$nope' }), context(), 'unknown-command'],
    ['it was answered 999 ms ago', line(), context({ lastAnsweredAtMs: () => at(4001).getTime() }), 'cooling-down'],
  ])('when %s, then it is ignored', (_case, chatLine, ctx, reason) => {
    expect(dispatch(chatLine, ctx)).toEqual({ kind: 'ignore', reason });
  });

  test('when it was answered exactly 1 s ago, then it is answered again', () => {
    expect(dispatch(line(), context({ lastAnsweredAtMs: () => at(4000).getTime() })).kind).toBe('answer');
  });

  test('when the line was sent 0.5 s before the one last answered (out of order), then it is ignored', () => {
    expect(
      dispatch(line({ sentAtMs: at(4500).getTime() }), context({ lastAnsweredAtMs: () => at(5000).getTime() })),
    ).toEqual({ kind: 'ignore', reason: 'cooling-down' });
  });

  test('the reply fills in the variables with the sender, the channel and the count', () => {
    const answer = dispatch(line(), context());
    if (answer.kind !== 'answer') throw new Error('expected an answer');
    expect(renderReply(answer, line(), 3, { intBetween: (min) => min })).toBe('viewer hugs friend #3');
  });

  test('when the sender name holds a newline, then the reply is one line: the control characters never reach chat', () => {
    const forged = line({ senderUsername: 'viewer\r\nKickstand: you won, visit scam.example' });
    const answer = dispatch(forged, context());
    if (answer.kind !== 'answer') throw new Error('expected an answer');
    expect(renderReply(answer, forged, 3, { intBetween: (min) => min })).toBe(
      'viewerKickstand: you won, visit scam.example hugs friend #3',
    );
  });
});
