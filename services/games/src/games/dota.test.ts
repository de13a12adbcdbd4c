import {
  describeHero,
  describeRankTier,
  dotaHeroes,
  findHero,
  heroReply,
  mmrReply,
  steamId64Base,
  toSteamAccountId,
} from './dota';

const nameOf = (query: string) => {
  const match = findHero(dotaHeroes(), query);
  return match.kind === 'found' ? match.hero.localizedName : match.kind;
};

describe('findHero over dotaconstants', () => {
  test('when the data is loaded, then it holds the heroes with their localized names', () => {
    expect(dotaHeroes().length).toBeGreaterThan(100);
  });

  test.each([
    ['Anti-Mage', 'Anti-Mage'],
    ['anti-mage', 'Anti-Mage'],
    ['ANTI MAGE', 'Anti-Mage'],
    ['antimage', 'Anti-Mage'],
    ['  crystal   maiden ', 'Crystal Maiden'],
    ['natures prophet', "Nature's Prophet"],
    ['am', 'Anti-Mage'],
    ['AM', 'Anti-Mage'],
    ['wr', 'Windranger'],
    ['cm', 'Crystal Maiden'],
    ['qop', 'Queen of Pain'],
    ['sf', 'Shadow Fiend'],
    ['nevermore', 'Shadow Fiend'],
    ['zuus', 'Zeus'],
    ['wisp', 'Io'],
    ['invo', 'Invoker'],
    ['maiden', 'Crystal Maiden'],
    ['Pudge', 'Pudge'],
  ])('when the query is "%s", then it finds %s', (query, hero) => {
    expect(nameOf(query)).toBe(hero);
  });

  test('when the query fits several heroes, then they are offered', () => {
    const match = findHero(dotaHeroes(), 'shadow');
    expect(match.kind).toBe('ambiguous');
    expect(heroReply(dotaHeroes(), 'shadow')).toBe('Which hero? Shadow Fiend, Shadow Shaman, Shadow Demon');
  });

  test('when nothing fits, or nothing is asked, then the reply says so', () => {
    expect(nameOf('zzzz')).toBe('unknown');
    expect(heroReply(dotaHeroes(), 'zzzz')).toBe('No Dota 2 hero matches "zzzz".');
    expect(heroReply(dotaHeroes(), '  ')).toBe('Look up a hero with $hero <name>, e.g. $hero anti-mage or $hero am.');
  });

  test('when a hero is found, then the answer has attribute, attack type, roles and base stats', () => {
    const match = findHero(dotaHeroes(), 'am');
    if (match.kind !== 'found') throw new Error('Anti-Mage not found');
    const text = describeHero(match.hero);
    expect(text).toMatch(/^Anti-Mage: Agility, Melee · Roles: Carry, Escape/);
    expect(text).toMatch(/Str \d+ \(\+[\d.]+\) Agi \d+ \(\+[\d.]+\) Int \d+ \(\+[\d.]+\)/);
    expect(text).toMatch(/Damage \d+-\d+, Armor [\d.-]+, Move speed \d+, Attack range \d+$/);
    expect(text.length).toBeLessThanOrEqual(500);
  });
});

describe('describeRankTier', () => {
  test.each([
    [11, 'Herald 1'],
    [25, 'Guardian 5'],
    [33, 'Crusader 3'],
    [42, 'Archon 2'],
    [54, 'Legend 4'],
    [61, 'Ancient 1'],
    [75, 'Divine 5'],
    [80, 'Immortal'],
    [null, 'Uncalibrated'],
    [0, 'Uncalibrated'],
    [95, 'Unknown rank'],
  ])('when rank_tier is %p, then it reads %s', (tier, text) => {
    expect(describeRankTier(tier)).toBe(text);
  });
});

describe('mmrReply', () => {
  test('when OpenDota knows the player, then medal, leaderboard and MMR are shown when present', () => {
    expect(
      mmrReply({ kind: 'found', personaName: 'Dendi', rankTier: 80, leaderboardRank: 1234, estimatedMmr: 8123 }),
    ).toBe('Dendi: Immortal · Leaderboard #1,234 · Estimated MMR 8,123');
    expect(mmrReply({ kind: 'found', personaName: 'x', rankTier: 54, leaderboardRank: null, estimatedMmr: null })).toBe(
      'x: Legend 4',
    );
  });
});

describe('toSteamAccountId', () => {
  test('when given a 32-bit account id or a 64-bit SteamID, then the 32-bit account id comes out', () => {
    expect(toSteamAccountId('70388657')).toBe(70388657);
    expect(toSteamAccountId('76561198030654385')).toBe(70388657);
    expect(toSteamAccountId(String(steamId64Base + 4294967295n))).toBe(4294967295);
  });

  test('when given anything else, then it is refused', () => {
    for (const bad of ['0', '-5', 'abc', '4294967296', '76561197960265728', '1.5', '', '123456789012345678901']) {
      expect(toSteamAccountId(bad)).toBeNull();
    }
  });
});
