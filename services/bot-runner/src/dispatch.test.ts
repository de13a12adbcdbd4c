import { defaultCommandSettings, type CommandSettings } from '@kickstand/api-contract';
import {
  dispatch,
  renderReply,
  type ChatLine,
  type DispatchBot,
  type DispatchCommand,
  type DispatchContext,
} from './dispatch';

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
  senderBadges: [],
  ...overrides,
});

const hug: DispatchCommand = {
  key: 'hug',
  command: 'Hug',
  response: '{user} hugs {touser} #{count}',
  settings: defaultCommandSettings,
};

/** A running bot of channel 42 with `$Hug` (its settings as given) and a custom `$hero` that never answers. */
function botWith(settings: Partial<CommandSettings> = {}): DispatchBot {
  const command = { ...hug, settings: { ...defaultCommandSettings, ...settings } };
  return {
    isRunning: true,
    broadcasterUserId: '42',
    commands: new Map([
      ['hug', command],
      ...(settings.aliases ?? []).map((alias): [string, DispatchCommand] => [alias.toLowerCase(), command]),
      ['hero', { key: 'hero', command: 'hero', response: 'mine', settings: defaultCommandSettings }],
    ]),
  };
}
const runningBot = botWith();

function context(overrides: Partial<DispatchContext> = {}): DispatchContext {
  return {
    bot: runningBot,
    builtInNames: new Set(['hero', 'game']),
    lastAnsweredAtMs: () => undefined,
    ...overrides,
  };
}

/** Cooldowns as recorded: key → when the last answered line was sent. */
const answeredAt = (entries: Record<string, number>) => (key: string) => entries[key];

describe('dispatch', () => {
  test('when a running bot has the command (any letter case), then it is answered with the parsed args', () => {
    expect(dispatch(line(), context())).toEqual({
      kind: 'answer',
      ownerUserId: 'u1',
      commandKey: 'hug',
      command: 'Hug',
      response: '{user} hugs {touser} #{count}',
      args: ['@friend'],
      cooldowns: [{ key: '42:hug', ms: 1000 }],
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

  describe('settings', () => {
    test('when the command is disabled, then it is ignored as disabled', () => {
      expect(dispatch(line(), context({ bot: botWith({ enabled: false }) }))).toEqual({
        kind: 'ignore',
        reason: 'disabled',
      });
    });

    test('when a viewer types an alias (any letter case), then the command answers, counted and cooled down as the command', () => {
      const answer = dispatch(line({ content: '$CUDDLE @friend' }), context({ bot: botWith({ aliases: ['Cuddle'] }) }));

      expect(answer).toMatchObject({
        kind: 'answer',
        commandKey: 'hug',
        command: 'Hug',
        args: ['@friend'],
        cooldowns: [{ key: '42:hug', ms: 1000 }],
      });
    });

    test('when the command was just answered by its name, then its alias is cooling down too', () => {
      const bot = botWith({ aliases: ['cuddle'] });
      const lastAnsweredAtMs = answeredAt({ '42:hug': at(4500).getTime() });

      expect(dispatch(line({ content: '$cuddle' }), context({ bot, lastAnsweredAtMs }))).toEqual({
        kind: 'ignore',
        reason: 'cooling-down',
      });
    });

    test('when the global cooldown is 30 s, then a line 29 s after the last answer is ignored and one 30 s after is answered', () => {
      const bot = botWith({ globalCooldownSeconds: 30 });
      const lastAnsweredAtMs = answeredAt({ '42:hug': at(0).getTime() });

      expect(dispatch(line({ sentAtMs: at(29_999).getTime() }), context({ bot, lastAnsweredAtMs }))).toEqual({
        kind: 'ignore',
        reason: 'cooling-down',
      });
      expect(dispatch(line({ sentAtMs: at(30_000).getTime() }), context({ bot, lastAnsweredAtMs })).kind).toBe(
        'answer',
      );
    });

    test('when the global cooldown is 0, then nothing is recorded and a line right after the last answer is answered', () => {
      const bot = botWith({ globalCooldownSeconds: 0 });
      const answer = dispatch(line(), context({ bot, lastAnsweredAtMs: answeredAt({ '42:hug': at(4999).getTime() }) }));

      expect(answer).toMatchObject({ kind: 'answer', cooldowns: [] });
    });

    test('when a viewer cooldown of 60 s holds for viewer 7, then viewer 7 is ignored and viewer 8 is answered', () => {
      const bot = botWith({ userCooldownSeconds: 60 });
      const lastAnsweredAtMs = answeredAt({ '42:hug': at(0).getTime(), '42:hug:viewer:7': at(0).getTime() });

      expect(dispatch(line({ senderUserId: '7' }), context({ bot, lastAnsweredAtMs }))).toEqual({
        kind: 'ignore',
        reason: 'viewer-cooling-down',
      });
      expect(dispatch(line({ senderUserId: '8' }), context({ bot, lastAnsweredAtMs }))).toEqual(
        expect.objectContaining({
          kind: 'answer',
          cooldowns: [
            { key: '42:hug', ms: 1000 },
            { key: '42:hug:viewer:8', ms: 60_000 },
          ],
        }),
      );
      expect(
        dispatch(line({ senderUserId: '7', sentAtMs: at(60_000).getTime() }), context({ bot, lastAnsweredAtMs })).kind,
      ).toBe('answer');
    });

    test.each([
      ['a moderator', { senderBadges: ['moderator'] }],
      ['the broadcaster by badge', { senderBadges: ['broadcaster'] }],
      ['the broadcaster by account', { senderUserId: '42' }],
    ])(
      'when %s runs a cooling-down command and mods are exempt, then it is answered; when not exempt, ignored',
      (_who, sender) => {
        const lastAnsweredAtMs = answeredAt({ '42:hug': at(4900).getTime(), '42:hug:viewer:7': at(4900).getTime() });
        const settings = { globalCooldownSeconds: 30, userCooldownSeconds: 30 };

        expect(dispatch(line(sender), context({ bot: botWith(settings), lastAnsweredAtMs })).kind).toBe('answer');
        expect(
          dispatch(line(sender), context({ bot: botWith({ ...settings, modsExempt: false }), lastAnsweredAtMs })),
        ).toEqual({
          kind: 'ignore',
          reason: 'cooling-down',
        });
      },
    );

    test('when a VIP runs a cooling-down command, then mods-exempt does not help them', () => {
      const lastAnsweredAtMs = answeredAt({ '42:hug': at(4900).getTime() });

      expect(dispatch(line({ senderBadges: ['vip'] }), context({ lastAnsweredAtMs }))).toEqual({
        kind: 'ignore',
        reason: 'cooling-down',
      });
    });

    // who may run a command of each level; a refused viewer gets no reply ('not-permitted')
    const senders: [string, Partial<ChatLine>][] = [
      ['a viewer without badges', {}],
      ['a viewer with only unknown badges', { senderBadges: ['og', 'sub_gifter', 'verified'] }],
      ['a subscriber', { senderBadges: ['subscriber'] }],
      ['a founder', { senderBadges: ['founder'] }],
      ['a VIP', { senderBadges: ['vip'] }],
      ['a moderator', { senderBadges: ['subscriber', 'moderator'] }],
      ['the broadcaster (badge)', { senderBadges: ['broadcaster'] }],
      ['the broadcaster (own account, no badge)', { senderUserId: '42' }],
    ];
    const permitted: Record<CommandSettings['permission'], number> = {
      everyone: 0,
      subscribers: 2,
      vips: 4,
      moderators: 5,
      broadcaster: 6,
    };
    describe.each(Object.entries(permitted))('a command for %s', (permission, firstPermitted) => {
      test.each(
        senders.map(([who, sender], index) => [who, index >= firstPermitted ? 'answered' : 'ignored', sender] as const),
      )('when %s runs it, then it is %s', (_who, outcome, sender) => {
        const bot = botWith({ permission: permission as CommandSettings['permission'] });
        expect(dispatch(line(sender), context({ bot }))).toEqual(
          outcome === 'answered'
            ? expect.objectContaining({ kind: 'answer' })
            : { kind: 'ignore', reason: 'not-permitted' },
        );
      });
    });

    test('when a refused viewer types a disabled command, then it is ignored as disabled (a disabled command says nothing to anyone)', () => {
      const bot = botWith({ enabled: false, permission: 'moderators' });
      expect(dispatch(line(), context({ bot }))).toEqual({ kind: 'ignore', reason: 'disabled' });
    });
  });
});
