import {
  applyCommandChange,
  applyKickAccountChange,
  applySubscriptionChange,
  applyUserChange,
  botMessages,
  newBotState,
  notListeningReasonOf,
  setEnabled,
  start,
  statusOf,
  stop,
  type BotState,
  type CommandChange,
} from './bots';
import { defaultCommandSettings } from '@kickstand/api-contract';

const admin = { userId: 'admin-1', username: 'admin' };

function aBot(overrides: Partial<BotState> = {}): BotState {
  return {
    ...newBotState(),
    seen: true,
    username: 'streamer',
    kick: { broadcasterUserId: '4377088', username: 'kickname', needsRelink: false },
    ...overrides,
  };
}

describe('start', () => {
  test.each([
    ['the account is inactive (checked first)', aBot({ isActive: false, kick: null, botEnabled: false }), 'inactive'],
    ['no Kick account is linked', aBot({ kick: null, botEnabled: false }), 'not-linked'],
    [
      'the Kick account needs a relink',
      aBot({ kick: { broadcasterUserId: '1', username: 'k', needsRelink: true } }),
      'needs-relink',
    ],
    ['the administrator disabled the bot', aBot({ botEnabled: false }), 'disabled'],
  ])('when %s, then it is refused', (_case, state, refusal) => {
    expect(start(state, 'r1')).toEqual({ kind: 'refused', refusal });
  });

  test('when the bot can start, then it runs, not yet connected, and START goes out with the request id', () => {
    expect(start(aBot(), 'r1')).toEqual({
      kind: 'changed',
      state: aBot({ isRunning: true, controlRequestId: 'r1' }),
      effects: [{ kind: 'control', action: 'START', requestId: 'r1' }],
    });
  });

  test('when the bot already runs, then nothing changes; when it runs with an error, then START goes out again', () => {
    expect(start(aBot({ isRunning: true, isConnected: true }), 'r2')).toEqual({ kind: 'unchanged' });
    const failed = start(aBot({ isRunning: true, error: 'Kick said no' }), 'r2');
    expect(failed).toMatchObject({ kind: 'changed', state: { isRunning: true, error: '' } });
  });
});

describe('stop', () => {
  test('when the bot runs, then it stops and STOP goes out; when it does not, then nothing changes', () => {
    expect(stop(aBot({ isRunning: true, isConnected: true }), 'r3')).toEqual({
      kind: 'changed',
      state: aBot({ controlRequestId: 'r3' }),
      effects: [{ kind: 'control', action: 'STOP', requestId: 'r3' }],
    });
    expect(stop(aBot(), 'r3')).toEqual({ kind: 'unchanged' });
  });
});

describe('setEnabled', () => {
  test('when the user is unknown, then 404; when enabling without a Kick account, then refused', () => {
    expect(setEnabled(newBotState(), false, admin, 'r')).toEqual({ kind: 'refused', refusal: 'unknown-user' });
    expect(setEnabled(aBot({ kick: null, botEnabled: false }), true, admin, 'r')).toEqual({
      kind: 'refused',
      refusal: 'admin-not-linked',
    });
  });

  test('when a running bot is disabled, then it stops, STOP goes out and the action is audited', () => {
    expect(setEnabled(aBot({ isRunning: true, error: 'old' }), false, admin, 'r')).toEqual({
      kind: 'changed',
      state: aBot({ botEnabled: false, controlRequestId: 'r' }),
      effects: [
        { kind: 'control', action: 'STOP', requestId: 'r' },
        { kind: 'audit', action: 'bot.disabled', actor: admin },
      ],
    });
  });

  test('when the switch is already in place, then nothing changes and nothing is audited', () => {
    expect(setEnabled(aBot(), true, admin, 'r')).toEqual({ kind: 'unchanged' });
    expect(setEnabled(aBot({ kick: null, botEnabled: false }), false, admin, 'r')).toEqual({ kind: 'unchanged' });
  });
});

describe('facts from other services', () => {
  test('when a user is deactivated, then a running bot stops; a replay changes nothing', () => {
    const change = { kind: 'deactivated', username: 'streamer', isActive: false } as const;
    const decision = applyUserChange(aBot({ isRunning: true }), change, 'auto');
    expect(decision).toMatchObject({ kind: 'changed', state: { isActive: false, isRunning: false } });
    if (decision.kind !== 'changed') throw new Error('expected a change');
    expect(applyUserChange(decision.state, change, 'auto-2')).toEqual({ kind: 'unchanged' });
  });

  test('when a user whose bot ran is deactivated and activated again, then START goes out again; a replayed DEACTIVATED keeps that', () => {
    const deactivated = { kind: 'deactivated', username: 'streamer', isActive: false } as const;
    const first = applyUserChange(aBot({ isRunning: true }), deactivated, 'auto');
    if (first.kind !== 'changed') throw new Error('expected a change');
    expect(first.state).toMatchObject({ isActive: false, isRunning: false, resumeOnActivation: true });
    expect(applyUserChange(first.state, deactivated, 'auto-2')).toEqual({ kind: 'unchanged' });

    const activated = applyUserChange(
      first.state,
      { kind: 'activated', username: 'streamer', isActive: true },
      'again',
    );
    expect(activated).toEqual({
      kind: 'changed',
      state: { ...first.state, isActive: true, isRunning: true, resumeOnActivation: false, controlRequestId: 'again' },
      effects: [{ kind: 'control', action: 'START', requestId: 'again' }],
    });
  });

  test('when a user whose bot was stopped is activated again, then the bot stays stopped', () => {
    const first = applyUserChange(aBot(), { kind: 'deactivated', username: 'streamer', isActive: false }, 'auto');
    if (first.kind !== 'changed') throw new Error('expected a change');
    expect(applyUserChange(first.state, { kind: 'activated', username: 'streamer', isActive: true }, 'r')).toEqual({
      kind: 'changed',
      state: { ...first.state, isActive: true },
      effects: [],
    });
  });

  test('when a user whose bot ran is activated again but the bot was disabled meanwhile, then it stays stopped and says why', () => {
    const first = applyUserChange(
      aBot({ isRunning: true }),
      { kind: 'deactivated', username: 'streamer', isActive: false },
      'auto',
    );
    if (first.kind !== 'changed') throw new Error('expected a change');
    const disabled = { ...first.state, botEnabled: false };
    expect(applyUserChange(disabled, { kind: 'activated', username: 'streamer', isActive: true }, 'r')).toEqual({
      kind: 'changed',
      state: { ...disabled, isActive: true, resumeOnActivation: false, error: botMessages.disabledByAdmin },
      effects: [],
    });
  });

  test('when the Kick account needs a relink, then the bot stops with the relink error and keeps the link', () => {
    const decision = applyKickAccountChange(
      aBot({ isRunning: true, isConnected: true }),
      { kind: 'needs-relink', broadcasterUserId: '4377088', username: 'kickname' },
      'auto',
    );
    expect(decision).toMatchObject({
      kind: 'changed',
      state: { isRunning: false, error: botMessages.needsRelink, kick: { needsRelink: true } },
      effects: [{ kind: 'control', action: 'STOP' }],
    });
  });

  test('when chat.subscription answers an older request, then it is ignored', () => {
    const state = aBot({ isRunning: true, controlRequestId: 'new' });
    expect(applySubscriptionChange(state, { state: 'active', error: '', requestId: 'old' })).toEqual({
      kind: 'unchanged',
    });
    expect(applySubscriptionChange(state, { state: 'active', error: '', requestId: 'new' })).toMatchObject({
      kind: 'changed',
      state: { isConnected: true },
    });
  });

  test('when FAILED has no error text, then a default one is shown; for a stopped bot it changes nothing', () => {
    const failed = { state: 'failed', error: '', requestId: '' } as const;
    expect(applySubscriptionChange(aBot({ isRunning: true }), failed)).toMatchObject({
      state: { error: botMessages.subscriptionFailed },
    });
    expect(applySubscriptionChange(aBot(), failed)).toEqual({ kind: 'unchanged' });
  });

  const change = (
    kind: CommandChange['kind'],
    command: string,
    response: string,
    more: Partial<CommandChange> = {},
  ): CommandChange => ({ kind, command, response, previousCommand: '', settings: defaultCommandSettings, ...more });

  test('when a command is added in another letter case, then it replaces the one with the same key', () => {
    const state = aBot({ commands: [{ key: 'hug', command: 'hug', response: 'a' }] });
    expect(applyCommandChange(state, change('added', 'HUG', 'b'))).toMatchObject({
      state: { commands: [{ key: 'hug', command: 'HUG', response: 'b' }] },
    });
    expect(applyCommandChange(state, change('removed', 'Hug', ''))).toMatchObject({
      state: { commands: [] },
    });
  });

  test('when a command is renamed (UPDATED), then it takes the old one’s place with its settings; a replay changes nothing', () => {
    const state = aBot({
      commands: [
        { key: 'a', command: 'a', response: '1' },
        { key: 'disc', command: 'disc', response: 'd' },
        { key: 'z', command: 'z', response: '2' },
      ],
    });
    const settings = { ...defaultCommandSettings, aliases: ['dc'], enabled: false };
    const renamed = change('updated', 'Discord', 'join', { previousCommand: 'DISC', settings });

    const decision = applyCommandChange(state, renamed);

    expect(decision).toMatchObject({
      kind: 'changed',
      state: {
        commands: [
          { key: 'a', command: 'a', response: '1' },
          { key: 'discord', command: 'Discord', response: 'join', settings },
          { key: 'z', command: 'z', response: '2' },
        ],
      },
    });
    if (decision.kind !== 'changed') throw new Error('expected a change');
    expect(applyCommandChange(decision.state, renamed)).toEqual({ kind: 'unchanged' });
  });
});

describe('statusOf', () => {
  test('an error wins over the connection; no link is broadcaster "0"', () => {
    expect(statusOf(aBot({ isConnected: true, error: 'x' })).status).toBe('ERROR');
    expect(statusOf(aBot({ isConnected: true })).status).toBe('CONNECTED');
    expect(statusOf(newBotState())).toEqual({
      broadcasterUserId: '0',
      isRunning: false,
      isConnected: false,
      status: 'DISCONNECTED',
      commandCount: 0,
      error: '',
      botEnabled: true,
      notListeningReason: 'not-linked',
    });
  });
});

describe('why the bot does not listen', () => {
  const running = aBot({ isRunning: true, isConnected: true, controlRequestId: 'r1' });

  test.each([
    ['the account is deactivated (checked first)', aBot({ isActive: false, kick: null }), 'deactivated'],
    ['no Kick account is linked', aBot({ kick: null }), 'not-linked'],
    [
      'Kick refused the tokens',
      aBot({ kick: { broadcasterUserId: '1', username: 'k', needsRelink: true } }),
      'needs-relink',
    ],
    ['the administrator disabled the bot', aBot({ botEnabled: false }), 'disabled-by-admin'],
    ['the streamer stopped it', aBot(), 'stopped'],
    ['the subscription failed', aBot({ isRunning: true, error: 'Kick said no' }), 'subscription-failed'],
    [
      'an administrator removed the subscription',
      aBot({ isRunning: true, lostSubscription: 'admin' }),
      'unsubscribed-by-admin',
    ],
    ['Kick dropped the subscription', aBot({ isRunning: true, lostSubscription: 'kick' }), 'subscription-lost'],
    ['the subscription is not confirmed yet', aBot({ isRunning: true }), 'connecting'],
    ['it runs and its chat is subscribed', running, null],
  ])('when %s, then the reason is %p', (_case, state, reason) => {
    expect(notListeningReasonOf(state)).toBe(reason);
  });

  test('when an administrator removes the chat subscription of a running bot, then the bot shows it and start repairs it', () => {
    const byAdmin = applySubscriptionChange(running, {
      state: 'inactive',
      error: '',
      requestId: '',
      isRemovedByAdmin: true,
    });
    expect(byAdmin).toEqual({
      kind: 'changed',
      state: { ...running, isConnected: false, lostSubscription: 'admin' },
      effects: [],
    });
    if (byAdmin.kind !== 'changed') throw new Error('expected a change');
    expect(statusOf(byAdmin.state).notListeningReason).toBe('unsubscribed-by-admin');
    expect(start(byAdmin.state, 'r2')).toEqual({
      kind: 'changed',
      state: { ...running, isConnected: false, lostSubscription: '', controlRequestId: 'r2' },
      effects: [{ kind: 'control', action: 'START', requestId: 'r2' }],
    });
  });

  test('when Kick drops the subscription of a running bot, then it is a lost subscription; ACTIVE clears it', () => {
    const dropped = applySubscriptionChange(running, { state: 'inactive', error: '', requestId: '' });
    expect(dropped).toMatchObject({ state: { isConnected: false, lostSubscription: 'kick' } });
    if (dropped.kind !== 'changed') throw new Error('expected a change');
    expect(applySubscriptionChange(dropped.state, { state: 'active', error: '', requestId: '' })).toMatchObject({
      state: { isConnected: true, lostSubscription: '' },
    });
  });

  test("when INACTIVE answers the bot's own STOP, then nothing is lost", () => {
    const stopping = aBot({ controlRequestId: 'r3' });
    expect(applySubscriptionChange(stopping, { state: 'inactive', error: '', requestId: 'r3' })).toEqual({
      kind: 'unchanged',
    });
  });

  test('when the bot runs and listens, then start changes nothing', () => {
    expect(start(running, 'r4')).toEqual({ kind: 'unchanged' });
  });
});
