import { aChat, at, theBroadcaster, viewer } from '../testing/test-support';
import {
  advanceGuessBalance,
  closestGuesses,
  guess,
  parseAmount,
  reveal,
  startGuessBalance,
  type GuessBalanceState,
} from './guess-balance';
import type { ChatLineEntry, OutboxEntry } from './outbox';

const lines = (outbox: OutboxEntry[]) =>
  outbox.filter((entry): entry is ChatLineEntry => entry.type === 'chat').map((entry) => entry.content);

function aGame(durationMinutes = 5, startMs = at('20:00:00')): GuessBalanceState {
  return startGuessBalance({ id: 'gmb-1', chat: theBroadcaster(), durationMinutes, nowMs: startMs }).state;
}

describe('parseAmount', () => {
  test.each([
    ['1234', 123400],
    ['1,234', 123400],
    ['1234.50', 123450],
    ['1234.5', 123450],
    ['$1,234', 123400],
    ['$1,234.56', 123456],
    ['$1234', 123400],
    ['0', 0],
    ['12,345,678', 1234567800],
    ['999', 99900],
  ])('when the amount is "%s", then it is %i cents', (text, cents) => {
    expect(parseAmount(text)).toBe(cents);
  });

  test.each([
    '',
    'abc',
    '-5',
    '+5',
    '1,23',
    '12,34',
    '1,2345',
    '1.234',
    '12.',
    '.5',
    '1e5',
    '$',
    '$$5',
    '1 234',
    'Infinity',
    '5$',
    '1,234,56',
    '10000000000000',
  ])('when the amount is "%s", then it is refused', (text) => {
    expect(parseAmount(text)).toBeNull();
  });
});

describe('guess my balance', () => {
  test('when it starts, then the rules are announced and the deadline is set', () => {
    const started = startGuessBalance({
      id: 'gmb-1',
      chat: theBroadcaster(),
      durationMinutes: 3,
      nowMs: at('20:00:00'),
    });
    expect(started.state).toMatchObject({ phase: 'guessing', endsAtMs: at('20:03:00'), guesses: [] });
    expect(lines(started.outbox)).toEqual([
      "💰 GUESS MY BALANCE! Guess the streamer's balance with $gmb <amount>, e.g. $gmb 1,234.50. You have 3 minutes; only your latest guess counts, one guess every 30 seconds.",
    ]);
  });

  test('when a viewer guesses again after 30 s, then the new guess replaces the old one and takes its time', () => {
    let game = aGame();
    game = guess(game, viewer('ann'), 100000, at('20:00:10')).state;
    const second = guess(game, viewer('ann'), 250050, at('20:00:40'));
    expect(lines(second.outbox)).toEqual(['Guess updated: $2,500.50 (was $1,000).']);
    expect(second.state.guesses).toEqual([
      expect.objectContaining({ username: 'ann', cents: 250050, guessedAtMs: at('20:00:40') }),
    ]);
  });

  test('when a viewer guesses again within 30 s, then they are told the seconds left once, and the guess stands', () => {
    let game = aGame();
    const first = guess(game, viewer('ann'), 100000, at('20:00:10'));
    expect(lines(first.outbox)).toEqual(['Guess recorded: $1,000.']);
    game = first.state;
    const early = guess(game, viewer('ann'), 200000, at('20:00:20'));
    expect(lines(early.outbox)).toEqual(['Wait 20s before guessing again.']);
    const again = guess(early.state, viewer('ann'), 300000, at('20:00:30'));
    expect(again.outbox).toEqual([]);
    expect(again.state.guesses.map((g) => g.cents)).toEqual([100000]);
    const later = guess(again.state, viewer('ann'), 300000, at('20:00:40'));
    expect(lines(later.outbox)).toEqual(['Guess updated: $3,000 (was $1,000).']);
  });

  test('when guesses are played late, then the 30 s cooldown is judged by when they were sent', () => {
    const sent = (time: string) => ({ ...viewer('ann'), sentAtMs: at(time) });
    const first = guess(aGame(), sent('20:00:10'), 100000, at('20:02:00'));
    expect(first.state.guesses).toEqual([expect.objectContaining({ cents: 100000, guessedAtMs: at('20:00:10') })]);
    const early = guess(first.state, sent('20:00:30'), 200000, at('20:02:00'));
    expect(lines(early.outbox)).toEqual(['Wait 10s before guessing again.']);
    const onTime = guess(early.state, sent('20:00:40'), 300000, at('20:02:00'));
    expect(lines(onTime.outbox)).toEqual(['Guess updated: $3,000 (was $1,000).']);
  });

  test('when time runs out, then guessing closes and the broadcaster is reminded to reveal, once', () => {
    let game = aGame(5);
    game = guess(game, viewer('ann'), 100, at('20:01:00')).state;
    expect(advanceGuessBalance(game, at('20:04:59')).outbox).toEqual([]);
    const closed = advanceGuessBalance(game, at('20:05:00'));
    expect(closed.state.phase).toBe('closed');
    expect(lines(closed.outbox)).toEqual([
      '⌛ Guessing is closed with 1 guess! @streamer, reveal your balance with $gmb end <balance>.',
    ]);
    expect(closed.outbox.map((entry) => entry.id)).toEqual(['game:gmb-1:closed', 'gmb-1:closed']);
    expect(advanceGuessBalance(closed.state, at('20:06:00')).outbox).toEqual([]);
  });

  test('when guesses tie, then the one made first ranks higher; a replaced guess counts from its new time', () => {
    let game = aGame(10);
    game = guess(game, viewer('ann'), 110000, at('20:00:00')).state; // later replaced by 90000 at 20:01
    game = guess(game, viewer('bob'), 90000, at('20:00:30')).state; //  10.00 away, made at 20:00:30
    game = guess(game, viewer('cat'), 110000, at('20:00:45')).state; // 10.00 away, made at 20:00:45
    game = guess(game, viewer('ann'), 90000, at('20:01:00')).state; //  10.00 away, now made at 20:01
    game = guess(game, viewer('dan'), 100000, at('20:02:00')).state; // exact
    game = guess(game, viewer('eve'), 50000, at('20:00:01')).state;
    game = guess(game, viewer('fay'), 200000, at('20:00:02')).state;

    expect(closestGuesses(game.guesses, 100000)).toEqual([
      { rank: 1, username: 'dan', value: 1000 },
      { rank: 2, username: 'bob', value: 900 },
      { rank: 3, username: 'cat', value: 1100 },
      { rank: 4, username: 'ann', value: 900 },
      { rank: 5, username: 'eve', value: 500 },
    ]);
  });

  test('when the broadcaster reveals, then the top 5 closest are announced with medals, then 4th and 5th', () => {
    let game = aGame(10);
    for (const [name, cents, time] of [
      ['ann', 123000, '20:00:01'],
      ['bob', 125000, '20:00:02'],
      ['cat', 90000, '20:00:03'],
      ['dan', 200000, '20:00:04'],
      ['eve', 300000, '20:00:05'],
      ['fay', 900000, '20:00:06'],
    ] as const) {
      game = guess(game, viewer(name), cents, at(time)).state;
    }
    const chat = aChat({ isBroadcaster: true });
    const revealed = reveal(game, chat, 123456, at('20:03:00'));
    expect(revealed.state).toMatchObject({ phase: 'ended', balanceCents: 123456 });
    expect(lines(revealed.outbox)).toEqual([
      '💰 The balance was $1,234.56! 🥇 ann ($1,230) 🥈 bob ($1,250) 🥉 cat ($900) 4th dan ($2,000) 5th eve ($3,000)',
    ]);
    expect(revealed.outbox[0]).toMatchObject({ id: `game:${chat.messageId}`, replyToMessageId: chat.messageId });
    expect(revealed.outbox[1]).toMatchObject({
      type: 'game-event',
      kind: 'ended',
      id: 'gmb-1:end',
      guessBalance: { balance: 1234.56, guessCount: 6 },
    });
  });

  test('when nobody guessed, then the reveal says so', () => {
    expect(lines(reveal(aGame(), theBroadcaster(), 500, at('20:01:00')).outbox)).toEqual([
      '💰 The balance was $5! Nobody guessed.',
    ]);
  });
});
