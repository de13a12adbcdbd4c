import { defaultModerationFilters, type ModerationFilters } from '@kickstand/api-contract';
import type { ChatLine } from './dispatch';
import {
  emoteCount,
  forbiddenLinks,
  isExempt,
  isRepeat,
  isShouting,
  judge,
  linkHosts,
  matchesTerm,
  mayPermit,
  permitTarget,
  repeatKey,
  warningText,
  wildcardMatches,
  type JudgeMemory,
} from './filters';

const line = (overrides: Partial<ChatLine> = {}): ChatLine => ({
  messageId: 'm1',
  broadcasterUserId: '42',
  broadcasterUsername: 'channel',
  ownerUserId: 'u1',
  senderUsername: 'viewer',
  senderUserId: '7',
  content: 'hello',
  isFromBot: false,
  sentAtMs: 100_000,
  senderBadges: [],
  ...overrides,
});

const timeout = { kind: 'timeout' as const, timeoutMinutes: 5, warning: '{user}, no links' };

/** Every filter switched on with the given settings on top of the defaults. */
function allOn(overrides: Partial<ModerationFilters> = {}): ModerationFilters {
  const d = defaultModerationFilters;
  return {
    exemptSubscribers: false,
    links: { ...d.links, enabled: true, action: timeout, allowedDomains: ['kick.com'] },
    caps: { ...d.caps, enabled: true },
    words: { ...d.words, enabled: true, terms: ['badword', 'buy followers', 'free*coins'] },
    repeats: { ...d.repeats, enabled: true, count: 3, windowSeconds: 30 },
    length: { ...d.length, enabled: true, maxCharacters: 50 },
    emotes: { ...d.emotes, enabled: true, maxEmotes: 3 },
    ...overrides,
  };
}

const fresh: JudgeMemory = { hasPermit: false, earlierSameAtMs: [] };

describe('links', () => {
  it('when a line has hosts with or without a scheme, then linkHosts finds each (without www)', () => {
    expect(linkHosts('see https://www.Example.com/path?x=1 and clips.kick.com/abc, or evil.io.')).toEqual([
      'example.com',
      'clips.kick.com',
      'evil.io',
    ]);
  });

  it('when words only look like hosts (abbreviations, numbers, a single label), then none is a link', () => {
    expect(linkHosts('e.g. 3.14 is pi... version 1.2.3 localhost hello.')).toEqual([]);
  });

  it('when a domain is allowed, then it and its subdomains pass but a look-alike does not', () => {
    expect(forbiddenLinks('kick.com clips.kick.com notkick.com kick.com.evil.net', ['kick.com'])).toEqual([
      'notkick.com',
      'kick.com.evil.net',
    ]);
  });

  it('when a viewer posts a forbidden link, then the links filter catches it with its action', () => {
    expect(judge(line({ content: 'go to spam.example.net now' }), allOn(), fresh)).toEqual({
      kind: 'caught',
      filter: 'links',
      action: timeout,
      reason: 'link',
    });
  });

  it('when the viewer holds a permit, then the link passes and the permit is used', () => {
    expect(judge(line({ content: 'spam.example.net' }), allOn(), { ...fresh, hasPermit: true })).toEqual({
      kind: 'pass',
      usedPermit: true,
    });
  });

  it('when a line has only allowed links, then it passes without using a permit', () => {
    expect(judge(line({ content: 'https://kick.com/channel' }), allOn(), { ...fresh, hasPermit: true })).toEqual({
      kind: 'pass',
      usedPermit: false,
    });
  });

  it('when the links filter is off, then a link passes', () => {
    const filters = allOn({ links: { ...allOn().links, enabled: false } });
    expect(judge(line({ content: 'spam.example.net' }), filters, fresh)).toEqual({ kind: 'pass', usedPermit: false });
  });

  it('when a line is $permit with a name, then permitTarget reads the name in lowercase (an @ is dropped)', () => {
    expect(permitTarget('$permit @Viewer_1')).toBe('viewer_1');
    expect(permitTarget('$PERMIT someone ')).toBe('someone');
    expect(permitTarget('$permit')).toBeUndefined();
    expect(permitTarget('$permit a b')).toBeUndefined();
    expect(permitTarget('please $permit me')).toBeUndefined();
  });

  it('when the sender is a moderator or the broadcaster, then they may permit; a VIP or a viewer may not', () => {
    expect(mayPermit(line({ senderBadges: ['moderator'] }))).toBe(true);
    expect(mayPermit(line({ senderUserId: '42' }))).toBe(true);
    expect(mayPermit(line({ senderBadges: ['vip'] }))).toBe(false);
    expect(mayPermit(line())).toBe(false);
  });
});

describe('caps', () => {
  it('when enough letters are mostly capitals, then the line is shouting', () => {
    expect(isShouting('WHY IS THIS SO LOUD', 10, 70)).toBe(true);
    expect(isShouting('Why Is This So Loud', 10, 70)).toBe(false);
  });

  it('when a line has fewer letters than the minimum, then it is never shouting', () => {
    expect(isShouting('GG WP!!!', 10, 70)).toBe(false);
  });

  it('when the share of capitals is exactly the percentage, then it counts; digits and emotes do not count', () => {
    expect(isShouting('ABCDEFGhij 12345', 10, 70)).toBe(true);
    expect(isShouting('ABCDEFghij', 10, 70)).toBe(false);
    expect(isShouting('abcdefghij [emote:37226:KEKLEO]', 10, 70)).toBe(false);
  });

  it('when a viewer shouts, then the caps filter catches the line', () => {
    const verdict = judge(line({ content: 'STOP THE STREAM NOW' }), allOn(), fresh);
    expect(verdict).toMatchObject({ kind: 'caught', filter: 'caps' });
  });
});

describe('banned words and patterns', () => {
  it('when a term is a word, then it matches whole words in any case only', () => {
    expect(matchesTerm('badword', 'this is a BadWord!')).toBe(true);
    expect(matchesTerm('badword', 'badwords are fine')).toBe(false);
  });

  it('when a term is a phrase, then its words must follow each other', () => {
    expect(matchesTerm('buy followers', 'Buy   followers here')).toBe(true);
    expect(matchesTerm('buy followers', 'buy cheap followers')).toBe(false);
  });

  it('when a term has * or ?, then it is a pattern matched anywhere in the line', () => {
    expect(matchesTerm('free*coins', 'get FREE kick coins today')).toBe(true);
    expect(matchesTerm('c?t', 'my cat')).toBe(true);
    expect(matchesTerm('c?t', 'my ct')).toBe(false);
    expect(wildcardMatches('a*b*c', 'xxaxxbxxc')).toBe(true);
    expect(wildcardMatches('a*b*c', 'xxaxxcxxb')).toBe(false);
  });

  it('when a pattern is built to backtrack (many stars against a long non-matching line), then it answers no', () => {
    // a regex like (a*)*b would take exponential time here; the two-pointer match is O(line × pattern)
    expect(wildcardMatches('a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(500))).toBe(false);
  });

  it('when a regex metacharacter is in a term, then it is an ordinary character', () => {
    expect(matchesTerm('a.b*', 'axb')).toBe(false);
    expect(matchesTerm('a.b*', 'a.b')).toBe(true);
  });

  it('when a viewer writes a banned phrase, then the words filter catches the line before the others', () => {
    const verdict = judge(line({ content: 'BUY FOLLOWERS AT spam.example.net' }), allOn(), fresh);
    expect(verdict).toMatchObject({ kind: 'caught', filter: 'words' });
  });
});

describe('repeats', () => {
  it('when the same text comes the Nth time within the window, then it is a repeat', () => {
    expect(isRepeat([90_000, 95_000], 100_000, 3, 30)).toBe(true);
    expect(isRepeat([95_000], 100_000, 3, 30)).toBe(false);
  });

  it('when the earlier lines are older than the window, then they do not count', () => {
    expect(isRepeat([70_000, 95_000], 100_000, 3, 30)).toBe(false);
  });

  it('when texts differ only in case and spacing, then they have one key', () => {
    expect(repeatKey('  Hello   World ')).toBe(repeatKey('hello world'));
  });

  it('when a viewer repeats a line for the third time, then the repeats filter catches it', () => {
    const verdict = judge(line({ content: 'hi' }), allOn(), { ...fresh, earlierSameAtMs: [90_000, 99_000] });
    expect(verdict).toMatchObject({ kind: 'caught', filter: 'repeats' });
  });
});

describe('length and emotes', () => {
  it('when a line is longer than the maximum, then the length filter catches it', () => {
    expect(judge(line({ content: 'x'.repeat(51) }), allOn(), fresh)).toMatchObject({ filter: 'length' });
    expect(judge(line({ content: 'x'.repeat(50) }), allOn(), fresh)).toEqual({ kind: 'pass', usedPermit: false });
  });

  it('when Kick emote codes are in a line, then each counts once', () => {
    expect(emoteCount('[emote:1:a] hi [emote:22:KEK][emote:3:b] [emote:x:y]')).toBe(3);
  });

  it('when a line has more emotes than allowed, then the emotes filter catches it', () => {
    const four = '[emote:1:a][emote:1:a][emote:1:a][emote:1:a]';
    expect(judge(line({ content: four }), allOn(), fresh)).toMatchObject({ filter: 'emotes' });
    expect(judge(line({ content: four.slice(11) }), allOn(), fresh)).toEqual({ kind: 'pass', usedPermit: false });
  });
});

describe('exemptions', () => {
  const offending = 'BUY FOLLOWERS spam.example.net';

  it.each([['moderator'], ['vip'], ['broadcaster']])(
    'when the sender has the %s badge, then no filter applies',
    (badge) => {
      expect(judge(line({ content: offending, senderBadges: [badge] }), allOn(), fresh)).toEqual({
        kind: 'pass',
        usedPermit: false,
      });
    },
  );

  it('when the sender is the channel itself, then no filter applies', () => {
    expect(isExempt(line({ senderUserId: '42' }), allOn())).toBe(true);
  });

  it('when subscribers are exempt, then a subscriber or founder passes; otherwise they are filtered', () => {
    expect(isExempt(line({ senderBadges: ['subscriber'] }), allOn({ exemptSubscribers: true }))).toBe(true);
    expect(isExempt(line({ senderBadges: ['founder'] }), allOn({ exemptSubscribers: true }))).toBe(true);
    expect(isExempt(line({ senderBadges: ['subscriber'] }), allOn())).toBe(false);
    expect(isExempt(line(), allOn({ exemptSubscribers: true }))).toBe(false);
  });
});

describe('warning', () => {
  it('when a warning has {user}, then it names the sender', () => {
    expect(warningText('{user}, no links please', 'viewer')).toBe('viewer, no links please');
  });
});
