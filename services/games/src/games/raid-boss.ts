import type { Random } from '@kickstand/chat-language';
import {
  announce,
  replyTo,
  type ChatInput,
  type GameEventEntry,
  type LeaderboardRow,
  type OutboxEntry,
} from './outbox';
import { formatCount, formatDuration, minutesText, placeLabel } from './text';

/** Spec §9: HP 5,000–20,000, 4 random weapons, 5 s cooldown per viewer, top 5 recognised. */
export const raidBossRules = {
  minHp: 5_000,
  maxHp: 20_000,
  weaponCount: 4,
  cooldownMs: 5_000,
  topCount: 5,
} as const;

export interface Weapon {
  name: string;
  minDamage: number;
  maxDamage: number;
}

/** The weapons a raid boss draws its 4 from, each with its damage range (both ends included). */
export const weaponArsenal: readonly Weapon[] = [
  { name: 'Sword', minDamage: 100, maxDamage: 200 },
  { name: 'Axe', minDamage: 120, maxDamage: 240 },
  { name: 'Bow', minDamage: 80, maxDamage: 220 },
  { name: 'Dagger', minDamage: 60, maxDamage: 160 },
  { name: 'Hammer', minDamage: 150, maxDamage: 280 },
  { name: 'Spear', minDamage: 110, maxDamage: 210 },
  { name: 'Fireball', minDamage: 50, maxDamage: 350 },
  { name: 'Lightning', minDamage: 20, maxDamage: 400 },
];

export const bossNames: readonly string[] = [
  'Gorgath the Devourer',
  'The Hollow King',
  'Skarn the Unbroken',
  'Velkor Stormbringer',
  'The Crimson Wyrm',
  'Mother of Ash',
];

export type RaidBossAnnouncement = 'half-time' | 'final-minute' | 'hp-50' | 'hp-10' | 'end';

export interface TimedAnnouncement {
  name: RaidBossAnnouncement;
  atMs: number;
}

export interface Attacker {
  userId: string;
  username: string;
  /** Damage dealt in total (never more than the HP that was left). */
  damage: number;
  firstHitAtMs: number;
  lastAttackAtMs: number;
  /** The lastAttackAtMs whose cooldown the viewer was already told about (one notice per cooldown). */
  cooldownNoticeForMs: number | null;
}

export interface RaidBossState {
  kind: 'raid-boss';
  id: string;
  ownerUserId: string;
  phase: 'running' | 'ended';
  outcome: 'defeated' | 'escaped' | null;
  startedAtMs: number;
  endsAtMs: number;
  durationMinutes: number;
  boss: string;
  maxHp: number;
  hp: number;
  /** The 4 weapons offered, in the order announced; the first is the default. */
  weapons: Weapon[];
  /** In the order of their first hit. */
  attackers: Attacker[];
  /** The timed announcements, set at start. */
  schedule: TimedAnnouncement[];
  /** Announcements already made (timed and HP thresholds), each at most once. */
  announced: RaidBossAnnouncement[];
}

export interface GameStep<S> {
  state: S;
  outbox: OutboxEntry[];
}

/**
 * Half time at the middle; the final minute one minute before the end, but only when that comes
 * after half time (games of 3 minutes or more: in a 1- or 2-minute game the half-time line already
 * says so); the end at the deadline.
 */
export function raidBossSchedule(startedAtMs: number, durationMinutes: number): TimedAnnouncement[] {
  const durationMs = durationMinutes * 60_000;
  const endsAtMs = startedAtMs + durationMs;
  const halfTimeAtMs = startedAtMs + durationMs / 2;
  const finalMinuteAtMs = endsAtMs - 60_000;
  const schedule: TimedAnnouncement[] = [{ name: 'half-time', atMs: halfTimeAtMs }];
  if (finalMinuteAtMs > halfTimeAtMs) schedule.push({ name: 'final-minute', atMs: finalMinuteAtMs });
  schedule.push({ name: 'end', atMs: endsAtMs });
  return schedule;
}

/** Draws `count` different items, in the order drawn. */
function drawDistinct<T>(items: readonly T[], count: number, random: Random): T[] {
  const pool = [...items];
  const drawn: T[] = [];
  while (drawn.length < count && pool.length > 0) {
    const [picked] = pool.splice(random.intBetween(0, pool.length - 1), 1);
    if (picked !== undefined) drawn.push(picked);
  }
  return drawn;
}

const hpText = (state: Pick<RaidBossState, 'hp' | 'maxHp'>) =>
  `${formatCount(state.hp)}/${formatCount(state.maxHp)} HP`;
const weaponText = (weapon: Weapon) => `${weapon.name} (${weapon.minDamage}-${weapon.maxDamage})`;

export function startRaidBoss(input: {
  id: string;
  chat: ChatInput;
  durationMinutes: number;
  nowMs: number;
  random: Random;
}): GameStep<RaidBossState> {
  const { id, chat, durationMinutes, nowMs, random } = input;
  const maxHp = random.intBetween(raidBossRules.minHp, raidBossRules.maxHp);
  const boss = bossNames[random.intBetween(0, bossNames.length - 1)] ?? 'The Raid Boss';
  const weapons = drawDistinct(weaponArsenal, raidBossRules.weaponCount, random);
  const schedule = raidBossSchedule(nowMs, durationMinutes);
  const state: RaidBossState = {
    kind: 'raid-boss',
    id,
    ownerUserId: chat.ownerUserId,
    phase: 'running',
    outcome: null,
    startedAtMs: nowMs,
    endsAtMs: nowMs + durationMinutes * 60_000,
    durationMinutes,
    boss,
    maxHp,
    hp: maxHp,
    weapons,
    attackers: [],
    schedule,
    announced: [],
  };
  const text =
    `⚔️ RAID BOSS! ${boss} appears with ${formatCount(maxHp)} HP. Defeat it within ${minutesText(durationMinutes)}! ` +
    `Weapons: ${weapons.map(weaponText).join(', ')}. Attack with $attack <weapon> (every 5 seconds).`;
  return {
    state,
    outbox: [
      replyTo(chat, text, nowMs),
      event(
        state,
        'started',
        `${chat.sender.username} started a raid boss: ${boss} with ${formatCount(maxHp)} HP`,
        nowMs,
        {
          actor: chat.sender,
        },
      ),
    ],
  };
}

/**
 * The weapon for `$attack <query>`: an exact name, else the only offered weapon whose name starts
 * with the query (letter case and punctuation ignored). No weapon, or one that matches nothing or
 * several, gives the first offered weapon (the default announced at start).
 */
export function pickWeapon(weapons: readonly Weapon[], query: string | null): Weapon {
  const fallback = weapons[0] ?? weaponArsenal[0] ?? { name: 'Fists', minDamage: 1, maxDamage: 10 };
  const wanted = normalize(query ?? '');
  if (wanted === '') return fallback;
  const exact = weapons.find((weapon) => normalize(weapon.name) === wanted);
  if (exact) return exact;
  const prefixed = weapons.filter((weapon) => normalize(weapon.name).startsWith(wanted));
  return prefixed.length === 1 && prefixed[0] ? prefixed[0] : fallback;
}

const normalize = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * How long a viewer still has to wait before attacking (0 when they may attack), for an attack
 * sent at `sentAtMs`; an attack sent before the last one (out of order) waits the whole cooldown.
 */
export function cooldownLeftMs(state: RaidBossState, userId: string, sentAtMs: number): number {
  const attacker = state.attackers.find((entry) => entry.userId === userId);
  if (!attacker) return 0;
  return Math.min(raidBossRules.cooldownMs, Math.max(0, attacker.lastAttackAtMs + raidBossRules.cooldownMs - sentAtMs));
}

/**
 * `$attack [weapon]` on a running boss. The 5 s cooldown is judged by when the viewer sent the
 * attack (`chat.sentAtMs`), not by `nowMs`, when it is played.
 */
export function attack(
  state: RaidBossState,
  chat: ChatInput,
  weaponQuery: string | null,
  nowMs: number,
  random: Random,
): GameStep<RaidBossState> {
  const { userId, username } = chat.sender;
  const existing = state.attackers.find((entry) => entry.userId === userId);
  const sentAtMs = chat.sentAtMs ?? nowMs;
  const waitMs = cooldownLeftMs(state, userId, sentAtMs);
  if (existing && waitMs > 0) {
    if (existing.cooldownNoticeForMs === existing.lastAttackAtMs) return { state, outbox: [] };
    const secondsLeft = Math.ceil(waitMs / 1000);
    return {
      state: {
        ...state,
        attackers: state.attackers.map((entry) =>
          entry.userId === userId ? { ...entry, cooldownNoticeForMs: entry.lastAttackAtMs } : entry,
        ),
      },
      outbox: [replyTo(chat, `Wait ${secondsLeft}s before your next attack.`, nowMs)],
    };
  }

  const weapon = pickWeapon(state.weapons, weaponQuery);
  const rolled = random.intBetween(weapon.minDamage, weapon.maxDamage);
  const dealt = Math.min(rolled, state.hp);
  const hp = state.hp - dealt;
  const attackers = existing
    ? state.attackers.map((entry) =>
        entry.userId === userId
          ? { ...entry, username, damage: entry.damage + dealt, lastAttackAtMs: sentAtMs, cooldownNoticeForMs: null }
          : entry,
      )
    : [
        ...state.attackers,
        {
          userId,
          username,
          damage: dealt,
          firstHitAtMs: sentAtMs,
          lastAttackAtMs: sentAtMs,
          cooldownNoticeForMs: null,
        },
      ];
  let next: RaidBossState = { ...state, hp, attackers };
  const isDefeated = hp === 0;
  const replyText = isDefeated
    ? `${username} lands the final blow on ${state.boss} with ${weapon.name} for ${formatCount(dealt)} damage!`
    : `${username} hits ${state.boss} with ${weapon.name} for ${formatCount(dealt)} damage! ${hpText(next)} left.`;
  const outbox: OutboxEntry[] = [
    replyTo(chat, replyText, nowMs),
    event(next, 'attacked', `${username} hit ${state.boss} with ${weapon.name} for ${dealt} damage`, nowMs, {
      actor: chat.sender,
      eventId: `${state.id}:attack:${chat.messageId}`,
      raidBoss: { damage: dealt, weapon: weapon.name },
    }),
  ];
  if (isDefeated) {
    const ended = endRaidBoss(next, 'defeated', nowMs);
    return { state: ended.state, outbox: [...outbox, ...ended.outbox] };
  }
  // Thresholds crossed by this hit, each announced once (a killing blow announces only the end).
  for (const threshold of hpThresholds) {
    if (next.announced.includes(threshold.name)) continue;
    if (hp * threshold.divisor > state.maxHp) continue;
    next = { ...next, announced: [...next.announced, threshold.name] };
    outbox.push(...announcement(next, threshold.name, threshold.text(next), nowMs));
  }
  return { state: next, outbox };
}

const hpThresholds: ReadonlyArray<{
  name: RaidBossAnnouncement;
  /** Announced once hp * divisor <= maxHp. */
  divisor: number;
  text(state: RaidBossState): string;
}> = [
  { name: 'hp-50', divisor: 2, text: (s) => `💥 ${s.boss} is down to half health: ${hpText(s)} left!` },
  { name: 'hp-10', divisor: 10, text: (s) => `🩸 ${s.boss} is almost beaten: only ${hpText(s)} left!` },
];

/**
 * Moves the game to `nowMs`: each timed announcement that is due is made once, in time order.
 * At the deadline the boss escapes; announcements of the middle of the game that were still due
 * then (the service was down through them) are dropped, as the end says it all.
 */
export function advanceRaidBoss(state: RaidBossState, nowMs: number): GameStep<RaidBossState> {
  if (state.phase !== 'running') return { state, outbox: [] };
  if (nowMs >= state.endsAtMs) return endRaidBoss(state, 'escaped', nowMs);
  let next = state;
  const outbox: OutboxEntry[] = [];
  for (const item of state.schedule) {
    if (item.name === 'end' || item.atMs > nowMs || next.announced.includes(item.name)) continue;
    next = { ...next, announced: [...next.announced, item.name] };
    const text =
      item.name === 'half-time'
        ? `⏳ Half time! ${state.boss} has ${hpText(state)} left and ${formatDuration(state.endsAtMs - item.atMs)} to go. Keep attacking with $attack!`
        : `⚠️ Final minute! ${state.boss} still has ${hpText(state)}. Attack now!`;
    outbox.push(...announcement(next, item.name, text, nowMs));
  }
  return { state: next, outbox };
}

/** When the scheduler must next look at this game; null once it has ended. */
export function raidBossNextDueMs(state: RaidBossState): number | null {
  if (state.phase !== 'running') return null;
  const pending = state.schedule.filter((item) => item.name === 'end' || !state.announced.includes(item.name));
  return Math.min(...pending.map((item) => item.atMs));
}

/** Best first: most damage, then who hit first. */
export function topDamage(state: RaidBossState, count: number = raidBossRules.topCount): LeaderboardRow[] {
  return [...state.attackers]
    .sort((a, b) => b.damage - a.damage || a.firstHitAtMs - b.firstHitAtMs)
    .slice(0, count)
    .map((attacker, index) => ({ rank: index + 1, username: attacker.username, value: attacker.damage }));
}

function leaderboardText(rows: readonly LeaderboardRow[]): string {
  if (rows.length === 0) return 'Nobody attacked.';
  return `Top damage: ${rows.map((row) => `${placeLabel(row.rank)} ${row.username} (${formatCount(row.value)})`).join(' ')}`;
}

function endRaidBoss(state: RaidBossState, outcome: 'defeated' | 'escaped', nowMs: number): GameStep<RaidBossState> {
  const ended: RaidBossState = { ...state, phase: 'ended', outcome, announced: [...state.announced, 'end'] };
  const top = leaderboardText(topDamage(ended));
  const text =
    outcome === 'defeated'
      ? `🏆 ${state.boss} has been defeated! ${top}`
      : `💨 Time is up! ${state.boss} escaped with ${hpText(state)}. ${top}`;
  return {
    state: ended,
    outbox: [
      announce(ended, 'end', text, nowMs),
      event(ended, 'ended', text, nowMs, {
        eventId: `${state.id}:end`,
        leaderboard: true,
        raidBoss: { isDefeated: outcome === 'defeated' },
      }),
    ],
  };
}

function announcement(state: RaidBossState, name: RaidBossAnnouncement, text: string, nowMs: number): OutboxEntry[] {
  return [
    announce(state, name, text, nowMs),
    event(state, 'announced', text, nowMs, { eventId: `${state.id}:${name}`, leaderboard: true }),
  ];
}

function event(
  state: RaidBossState,
  kind: GameEventEntry['kind'],
  summary: string,
  nowMs: number,
  options: {
    eventId?: string;
    actor?: { userId: string; username: string };
    leaderboard?: boolean;
    raidBoss?: { damage?: number; weapon?: string; isDefeated?: boolean };
  } = {},
): GameEventEntry {
  const entry: GameEventEntry = {
    type: 'game-event',
    id: options.eventId ?? `${state.id}:${kind}`,
    ownerUserId: state.ownerUserId,
    gameId: state.id,
    game: 'raid-boss',
    kind,
    summary,
    endsAtMs: state.endsAtMs,
    leaderboard: options.leaderboard ? topDamage(state) : [],
    raidBoss: { hp: state.hp, maxHp: state.maxHp, ...options.raidBoss },
    createdAtMs: nowMs,
  };
  if (options.actor) {
    entry.actorUserId = options.actor.userId;
    entry.actorUsername = options.actor.username;
  }
  return entry;
}
