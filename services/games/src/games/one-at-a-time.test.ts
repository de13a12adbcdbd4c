import { aChat, at, highest, scriptedRandom, theBroadcaster, viewer } from '../testing/test-support';
import { gameReplies, isInProgress, nextDueMs, playCommand, type GameState } from './one-at-a-time';
import type { ChatLineEntry, OutboxEntry } from './outbox';

const lines = (outbox: OutboxEntry[]) =>
  outbox.filter((entry): entry is ChatLineEntry => entry.type === 'chat').map((entry) => entry.content);
const random = () => scriptedRandom([5000], highest);
const startRaid = { kind: 'start', game: 'raid-boss', durationMinutes: 10 } as const;
const startGmb = { kind: 'start', game: 'guess-balance', durationMinutes: 5 } as const;

function running(intent: typeof startRaid | typeof startGmb = startRaid): GameState {
  const started = playCommand(null, intent, theBroadcaster(), at('20:00:00'), random()).game;
  if (!started) throw new Error('no game');
  return started;
}

describe('broadcaster only', () => {
  test.each([
    ['a raid boss', startRaid],
    ['guess my balance', startGmb],
  ] as const)(
    'when a viewer tries to start %s, then they are told only the broadcaster can, and no game starts',
    (_name, intent) => {
      const step = playCommand(null, intent, viewer('ann'), at('20:00:00'), random());
      expect(step.game).toBeNull();
      expect(lines(step.outbox)).toEqual([gameReplies.broadcasterOnlyStart]);
    },
  );

  test('when a viewer checks the rules with a bad duration or game, then they still only hear it is for the broadcaster', () => {
    expect(lines(playCommand(null, { kind: 'start-bad-duration' }, viewer('ann'), 0, random()).outbox)).toEqual([
      gameReplies.broadcasterOnlyStart,
    ]);
  });

  test('when a viewer tries to end guess my balance, then they are told only the broadcaster can, and it goes on', () => {
    const game = running(startGmb);
    const step = playCommand(game, { kind: 'reveal', balanceCents: 100 }, viewer('ann'), at('20:01:00'), random());
    expect(step.game).toBe(game);
    expect(lines(step.outbox)).toEqual([gameReplies.broadcasterOnlyEnd]);
  });

  test('when the broadcaster ends guess my balance with a balance, then it ends', () => {
    const step = playCommand(
      running(startGmb),
      { kind: 'reveal', balanceCents: 100 },
      theBroadcaster(),
      at('20:01:00'),
      random(),
    );
    expect(step.game?.phase).toBe('ended');
  });
});

describe('one game at a time', () => {
  test('when a game runs and the broadcaster starts another, then they are told a game is already running', () => {
    const game = running(startRaid);
    const step = playCommand(game, startGmb, theBroadcaster(), at('20:01:00'), random());
    expect(step.game).toBe(game);
    expect(lines(step.outbox)).toEqual([gameReplies.alreadyRunning]);
  });

  test('when guess my balance waits for its reveal, then a new game is refused with how to end it', () => {
    const closed = playCommand(running(startGmb), startRaid, theBroadcaster(), at('20:05:00'), random());
    expect(lines(closed.outbox)).toEqual([
      '⌛ Guessing is closed with 0 guesses! @streamer, reveal your balance with $gmb end <balance>.',
      gameReplies.awaitingReveal,
    ]);
  });

  test('when the game before has ended, then a new one starts', () => {
    const ended = playCommand(running(startRaid), startGmb, theBroadcaster(), at('20:10:00'), random());
    expect(ended.game).toMatchObject({ kind: 'guess-balance', phase: 'guessing' });
    expect(lines(ended.outbox)[0]).toMatch(/^💨 Time is up!/);
    expect(isInProgress(ended.game)).toBe(true);
  });
});

describe('durations and usage', () => {
  test('when the duration is outside 1-60, then the reply names the range', () => {
    expect(lines(playCommand(null, { kind: 'start-bad-duration' }, theBroadcaster(), 0, random()).outbox)).toEqual([
      'A game lasts 1 to 60 minutes, e.g. $game raidboss 10.',
    ]);
  });

  test('when the game is unknown, then the reply says how to start one', () => {
    expect(lines(playCommand(null, { kind: 'start-usage' }, theBroadcaster(), 0, random()).outbox)).toEqual([
      'Start a game with $game raidboss [minutes] or $game gmb [minutes].',
    ]);
  });
});

describe('commands without their game', () => {
  test('when no raid boss runs, then $attack is answered so', () => {
    expect(
      lines(playCommand(running(startGmb), { kind: 'attack', weapon: null }, viewer('a'), 0, random()).outbox),
    ).toEqual([gameReplies.noRaidBoss]);
  });

  test('when no guess my balance runs, then $gmb is answered so, and a closed one says guessing is closed', () => {
    expect(lines(playCommand(null, { kind: 'guess', cents: 1 }, viewer('a'), 0, random()).outbox)).toEqual([
      gameReplies.noGuessing,
    ]);
    const closed = playCommand(running(startGmb), { kind: 'guess', cents: 1 }, viewer('a'), at('20:06:00'), random());
    expect(lines(closed.outbox).at(-1)).toBe(gameReplies.guessingClosed);
    expect(lines(playCommand(null, { kind: 'reveal', balanceCents: 1 }, theBroadcaster(), 0, random()).outbox)).toEqual(
      [gameReplies.nothingToEnd],
    );
  });

  test('when $gmb has no amount or $gmb end no balance, then the reply shows the form', () => {
    const game = running(startGmb);
    expect(lines(playCommand(game, { kind: 'guess-usage' }, viewer('a'), at('20:00:01'), random()).outbox)).toEqual([
      gameReplies.guessUsage,
    ]);
    expect(
      lines(playCommand(game, { kind: 'reveal-usage' }, theBroadcaster(), at('20:00:01'), random()).outbox),
    ).toEqual([gameReplies.revealUsage]);
  });

  test('when a viewer attacks after the deadline, before any tick, then the boss escapes first and the attack finds none', () => {
    const step = playCommand(
      running(startRaid),
      { kind: 'attack', weapon: null },
      aChat({ username: 'late' }),
      at('20:10:01'),
      random(),
    );
    expect(lines(step.outbox)).toEqual([expect.stringMatching(/^💨 Time is up!/), gameReplies.noRaidBoss]);
    expect(nextDueMs(step.game)).toBeNull();
  });
});
