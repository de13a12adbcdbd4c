import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatCount } from './text';

// ---------------------------------------------------------------------------------------------
// Heroes ($hero): matching is pure over a list; the list comes from dotaconstants' heroes.json.
// ---------------------------------------------------------------------------------------------

const statSchema = z.number().nullish();

/** One entry of dotaconstants' build/heroes.json (only the fields used here). */
const heroRecordSchema = z.object({
  id: z.number(),
  name: z.string(),
  localized_name: z.string(),
  primary_attr: z.string(),
  attack_type: z.string(),
  roles: z.array(z.string()).default([]),
  base_str: statSchema,
  base_agi: statSchema,
  base_int: statSchema,
  str_gain: statSchema,
  agi_gain: statSchema,
  int_gain: statSchema,
  base_armor: statSchema,
  move_speed: statSchema,
  attack_range: statSchema,
  base_attack_min: statSchema,
  base_attack_max: statSchema,
});
export type HeroRecord = z.infer<typeof heroRecordSchema>;

export interface Hero {
  id: number;
  localizedName: string;
  /** `npc_dota_hero_antimage` → `antimage`. */
  internalName: string;
  record: HeroRecord;
}

export function heroesFromRecords(records: Record<string, unknown>): Hero[] {
  return Object.values(records).map((raw) => {
    const record = heroRecordSchema.parse(raw);
    return {
      id: record.id,
      localizedName: record.localized_name,
      internalName: record.name.replace(/^npc_dota_hero_/, ''),
      record,
    };
  });
}

let loadedHeroes: Hero[] | undefined;

/**
 * The heroes of dotaconstants, read on first use (not at import). Only build/heroes.json is read:
 * the package's own entry is ESM and loads every table (about 6 MB), and its `exports` hide the
 * file, so it is found next to the resolved entry.
 */
export function dotaHeroes(): Hero[] {
  if (!loadedHeroes) {
    const file = path.join(path.dirname(require.resolve('dotaconstants')), 'build', 'heroes.json');
    const records = z.record(z.string(), z.unknown()).parse(JSON.parse(readFileSync(file, 'utf8')));
    loadedHeroes = heroesFromRecords(records);
  }
  return loadedHeroes;
}

/** Short names chatters use (lower case, letters and digits only) → the hero's localized name. */
export const heroAliases: Readonly<Record<string, string>> = {
  am: 'Anti-Mage',
  wr: 'Windranger',
  cm: 'Crystal Maiden',
  sf: 'Shadow Fiend',
  pa: 'Phantom Assassin',
  pl: 'Phantom Lancer',
  qop: 'Queen of Pain',
  wk: 'Wraith King',
  es: 'Earthshaker',
  ta: 'Templar Assassin',
  ck: 'Chaos Knight',
  dk: 'Dragon Knight',
  od: 'Outworld Devourer',
  np: "Nature's Prophet",
  lc: 'Legion Commander',
  kotl: 'Keeper of the Light',
  ls: 'Lifestealer',
  naix: 'Lifestealer',
  bh: 'Bounty Hunter',
  bs: 'Bloodseeker',
  sk: 'Sand King',
  sd: 'Shadow Demon',
  ds: 'Dark Seer',
  et: 'Elder Titan',
  tb: 'Terrorblade',
  ww: 'Winter Wyvern',
  aa: 'Ancient Apparition',
  mk: 'Monkey King',
  dw: 'Dark Willow',
  fv: 'Faceless Void',
  void: 'Faceless Void',
  sb: 'Spirit Breaker',
  bb: 'Bristleback',
  bm: 'Beastmaster',
  wd: 'Witch Doctor',
  ns: 'Night Stalker',
  ld: 'Lone Druid',
  vs: 'Vengeful Spirit',
  venge: 'Vengeful Spirit',
  storm: 'Storm Spirit',
  rhasta: 'Shadow Shaman',
  shaman: 'Shadow Shaman',
  jugg: 'Juggernaut',
  potm: 'Mirana',
  veno: 'Venomancer',
  ench: 'Enchantress',
  lesh: 'Leshrac',
  cent: 'Centaur Warrunner',
  timber: 'Timbersaw',
  gyro: 'Gyrocopter',
  clock: 'Clockwerk',
  abba: 'Abaddon',
  tide: 'Tidehunter',
  ogre: 'Ogre Magi',
  brew: 'Brewmaster',
  pb: 'Primal Beast',
  ember: 'Ember Spirit',
  necro: 'Necrophos',
};

export type HeroMatch =
  { kind: 'found'; hero: Hero } | { kind: 'ambiguous'; candidates: Hero[] } | { kind: 'unknown' } | { kind: 'empty' };

const key = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const words = (name: string) =>
  name
    .toLowerCase()
    .split(/[\s-]+/)
    .filter(Boolean);
const initials = (name: string) =>
  words(name)
    .map((word) => key(word).charAt(0))
    .join('');

/**
 * Forgiving hero lookup, tried in this order until something matches: the exact name (letter
 * case, spaces and punctuation ignored: "anti mage", "Anti-Mage", "antimage") or Valve's internal
 * name ("nevermore", "zuus"); a common short name ("am", "wr", "qop"); the start of the name
 * ("anti", "crystal"); the start of any word ("maiden"); the initials ("cm", "sf"); a part of the
 * name ("ranger"). A step that finds several heroes stops with them (ambiguous).
 */
export function findHero(heroes: readonly Hero[], query: string): HeroMatch {
  const wanted = key(query);
  if (wanted === '') return { kind: 'empty' };
  const alias = heroAliases[wanted];
  const steps: Array<(hero: Hero) => boolean> = [
    (hero) => key(hero.localizedName) === wanted || key(hero.internalName) === wanted,
    (hero) => alias !== undefined && hero.localizedName === alias,
    (hero) => key(hero.localizedName).startsWith(wanted),
    (hero) => words(hero.localizedName).some((word) => key(word).startsWith(wanted)),
    (hero) => initials(hero.localizedName) === wanted,
    (hero) => key(hero.localizedName).includes(wanted),
  ];
  for (const matches of steps) {
    const found = heroes.filter(matches);
    const [only] = found;
    if (found.length === 1 && only) return { kind: 'found', hero: only };
    if (found.length > 1) return { kind: 'ambiguous', candidates: found };
  }
  return { kind: 'unknown' };
}

const attributeNames: Record<string, string> = {
  str: 'Strength',
  agi: 'Agility',
  int: 'Intelligence',
  all: 'Universal',
};

const stat = (value: number | null | undefined) => (value === null || value === undefined ? '?' : String(value));

/** "Anti-Mage: Agility, Melee · Roles: Carry, Escape, Nuker · Str 21 (+1.6) …" */
export function describeHero(hero: Hero): string {
  const r = hero.record;
  const attribute = attributeNames[r.primary_attr] ?? r.primary_attr;
  return [
    `${hero.localizedName}: ${attribute}, ${r.attack_type}`,
    `Roles: ${r.roles.join(', ') || 'none'}`,
    `Str ${stat(r.base_str)} (+${stat(r.str_gain)}) Agi ${stat(r.base_agi)} (+${stat(r.agi_gain)}) Int ${stat(r.base_int)} (+${stat(r.int_gain)})`,
    `Damage ${stat(r.base_attack_min)}-${stat(r.base_attack_max)}, Armor ${stat(r.base_armor)}, Move speed ${stat(r.move_speed)}, Attack range ${stat(r.attack_range)}`,
  ].join(' · ');
}

export const heroReplies = {
  usage: 'Look up a hero with $hero <name>, e.g. $hero anti-mage or $hero am.',
  unknown: (query: string) => `No Dota 2 hero matches "${query}".`,
  ambiguous: (candidates: readonly Hero[]) =>
    `Which hero? ${candidates
      .slice(0, 8)
      .map((hero) => hero.localizedName)
      .join(', ')}${candidates.length > 8 ? ', …' : ''}`,
} as const;

/** The answer to `$hero <query>`. */
export function heroReply(heroes: readonly Hero[], query: string): string {
  const match = findHero(heroes, query);
  switch (match.kind) {
    case 'found':
      return describeHero(match.hero);
    case 'ambiguous':
      return heroReplies.ambiguous(match.candidates);
    case 'unknown':
      return heroReplies.unknown(query.trim().slice(0, 40));
    case 'empty':
      return heroReplies.usage;
  }
}

// ---------------------------------------------------------------------------------------------
// Rank ($mmr, $rank)
// ---------------------------------------------------------------------------------------------

export const medalNames = [
  'Herald',
  'Guardian',
  'Crusader',
  'Archon',
  'Legend',
  'Ancient',
  'Divine',
  'Immortal',
] as const;

/** OpenDota's rank_tier (tens: the medal 1–8, units: the stars) → "Legend 4", "Immortal", "Uncalibrated". */
export function describeRankTier(rankTier: number | null): string {
  if (rankTier === null || rankTier <= 0) return 'Uncalibrated';
  const medal = medalNames[Math.floor(rankTier / 10) - 1];
  if (!medal) return 'Unknown rank';
  const stars = rankTier % 10;
  return medal === 'Immortal' || stars === 0 ? medal : `${medal} ${stars}`;
}

/** What OpenDota said about a player (see opendota-client.ts). */
export type PlayerLookup =
  | {
      kind: 'found';
      personaName: string;
      rankTier: number | null;
      leaderboardRank: number | null;
      estimatedMmr: number | null;
    }
  | { kind: 'private' }
  | { kind: 'unreachable' };

export const mmrReplies = {
  noAccount: 'The streamer has not set a Steam account for Dota 2 stats yet.',
  private: "The streamer's Dota 2 profile is private or unknown on OpenDota.",
  unreachable: 'OpenDota is not answering right now. Try again in a moment.',
} as const;

/** "Dendi: Legend 4 · Leaderboard #123 · Estimated MMR 3,850". */
export function mmrReply(lookup: PlayerLookup | null): string {
  if (lookup === null) return mmrReplies.noAccount;
  if (lookup.kind === 'private') return mmrReplies.private;
  if (lookup.kind === 'unreachable') return mmrReplies.unreachable;
  const parts = [`${lookup.personaName || 'The streamer'}: ${describeRankTier(lookup.rankTier)}`];
  if (lookup.leaderboardRank !== null) parts.push(`Leaderboard #${formatCount(lookup.leaderboardRank)}`);
  if (lookup.estimatedMmr !== null) parts.push(`Estimated MMR ${formatCount(lookup.estimatedMmr)}`);
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------------------------
// Steam account ids
// ---------------------------------------------------------------------------------------------

// Shared with the settings' request schema (the HTTP contract), which accepts either form.
export { steamId64Base, toSteamAccountId } from '@kickstand/api-contract';
