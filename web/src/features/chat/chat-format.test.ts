import { badgeOf, isCommandText, isNearBottom, usernameColor } from './chat-format';

describe('auto-scroll rule (spec §9)', () => {
  test.each([
    [{ scrollTop: 900, scrollHeight: 1400, clientHeight: 400 }, true], // 100 px from the bottom
    [{ scrollTop: 899, scrollHeight: 1400, clientHeight: 400 }, false], // 101 px
    [{ scrollTop: 1000, scrollHeight: 1400, clientHeight: 400 }, true], // at the bottom
    [{ scrollTop: 0, scrollHeight: 300, clientHeight: 400 }, true], // nothing to scroll
  ])('when the box is %o, then near the bottom is %s', (box, expected) => {
    expect(isNearBottom(box)).toBe(expected);
  });
});

describe('chat line formatting', () => {
  test('when the same name is coloured twice, then the colour is the same; other names differ', () => {
    expect(usernameColor('viewer_alice')).toBe(usernameColor('viewer_alice'));
    expect(usernameColor('viewer_alice')).not.toBe(usernameColor('viewer_bob'));
    expect(usernameColor('x')).toMatch(/^hsl\(\d+ 75% 68%\)$/);
  });

  test('when badges are given, then the icon follows the first badge type', () => {
    expect(badgeOf({ badges: [{ type: 'broadcaster' }, { type: 'subscriber' }] }).kind).toBe('broadcaster');
    expect(badgeOf({ badges: [{ type: 'moderator' }] }).kind).toBe('moderator');
    expect(badgeOf({ badges: [{ type: 'subscriber' }, { type: 'moderator' }] }).kind).toBe('subscriber');
    expect(badgeOf({ badges: [{ type: 'vip' }] }).kind).toBe('default');
    expect(badgeOf({ badges: [] }).kind).toBe('default');
  });

  test('when text starts with $, then it is a command', () => {
    expect(isCommandText('$test')).toBe(true);
    expect(isCommandText('hi $test')).toBe(false);
  });
});
