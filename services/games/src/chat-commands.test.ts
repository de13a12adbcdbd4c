import { isBroadcaster, parseChatIntent, parseDuration } from './chat-commands';

describe('parseChatIntent', () => {
  test.each([
    ['$game raidboss', { kind: 'start', game: 'raid-boss', durationMinutes: 5 }],
    ['$game raidboss 10', { kind: 'start', game: 'raid-boss', durationMinutes: 10 }],
    ['$GAME RaidBoss 1', { kind: 'start', game: 'raid-boss', durationMinutes: 1 }],
    ['$game raid 60', { kind: 'start', game: 'raid-boss', durationMinutes: 60 }],
    ['$game gmb', { kind: 'start', game: 'guess-balance', durationMinutes: 5 }],
    ['  $game   gmb   15 ', { kind: 'start', game: 'guess-balance', durationMinutes: 15 }],
    ['$game', { kind: 'start-usage' }],
    ['$game chess', { kind: 'start-usage' }],
    ['$game raidboss 0', { kind: 'start-bad-duration' }],
    ['$game raidboss 61', { kind: 'start-bad-duration' }],
    ['$game gmb 2.5', { kind: 'start-bad-duration' }],
    ['$game gmb soon', { kind: 'start-bad-duration' }],
    ['$game gmb -5', { kind: 'start-bad-duration' }],
    ['$attack', { kind: 'attack', weapon: null }],
    ['$attack Axe', { kind: 'attack', weapon: 'Axe' }],
    ['$gmb 1,234.50', { kind: 'guess', cents: 123450 }],
    ['$gmb', { kind: 'guess-usage' }],
    ['$gmb lots', { kind: 'guess-usage' }],
    ['$gmb end 1234', { kind: 'reveal', balanceCents: 123400 }],
    ['$gmb END $1,000.5', { kind: 'reveal', balanceCents: 100050 }],
    ['$gmb end', { kind: 'reveal-usage' }],
    ['$gmb end much', { kind: 'reveal-usage' }],
    ['$hero anti mage', { kind: 'hero', query: 'anti mage' }],
    ['$hero', { kind: 'hero', query: '' }],
    ['$mmr', { kind: 'mmr' }],
    ['$rank', { kind: 'mmr' }],
  ])('when the line is "%s", then it reads as %j', (line, intent) => {
    expect(parseChatIntent(line)).toEqual(intent);
  });

  test.each(['hello $game raidboss', 'game raidboss', '$', '$ game', '$hello', '$gamer raidboss', ''])(
    'when the line is "%s", then it is not a games command',
    (line) => {
      expect(parseChatIntent(line)).toBeNull();
    },
  );
});

describe('parseDuration', () => {
  test('when no duration is given, then it is 5 minutes; 1 and 60 are the bounds', () => {
    expect(parseDuration(undefined)).toBe(5);
    expect(parseDuration('1')).toBe(1);
    expect(parseDuration('60')).toBe(60);
    expect(parseDuration('0')).toBeNull();
    expect(parseDuration('61')).toBeNull();
    expect(parseDuration('100')).toBeNull();
  });
});

describe('isBroadcaster', () => {
  test('when the sender is the channel, or carries a broadcaster badge, then they are the broadcaster', () => {
    expect(isBroadcaster({ userId: '42', badgeTypes: [] }, '42')).toBe(true);
    expect(isBroadcaster({ userId: '7', badgeTypes: ['subscriber', 'Broadcaster'] }, '42')).toBe(true);
    expect(isBroadcaster({ userId: '7', badgeTypes: ['moderator'] }, '42')).toBe(false);
    expect(isBroadcaster({ userId: '0', badgeTypes: [] }, '0')).toBe(false);
  });
});
