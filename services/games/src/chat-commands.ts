import { builtInCommandNames, commandKey, commandPrefix } from '@kickstand/chat-language';
import { gameDurationLimits } from './catalog';
import { parseAmount } from './games/guess-balance';

/** What a chat line asks of the games service; null when the line is not one of its commands. */
export type ChatIntent =
  | { kind: 'start'; game: 'raid-boss' | 'guess-balance'; durationMinutes: number }
  /** `$game` without a known game. */
  | { kind: 'start-usage' }
  /** `$game raidboss 0`, `$game gmb 61`, `$game gmb soon`. */
  | { kind: 'start-bad-duration' }
  | { kind: 'attack'; weapon: string | null }
  | { kind: 'guess'; cents: number }
  /** `$gmb` alone or with something that is not an amount. */
  | { kind: 'guess-usage' }
  | { kind: 'reveal'; balanceCents: number }
  /** `$gmb end` without a valid balance. */
  | { kind: 'reveal-usage' }
  | { kind: 'hero'; query: string }
  | { kind: 'mmr' };

const gameAliases: Record<string, 'raid-boss' | 'guess-balance'> = {
  raidboss: 'raid-boss',
  'raid-boss': 'raid-boss',
  raid: 'raid-boss',
  boss: 'raid-boss',
  gmb: 'guess-balance',
  guessmybalance: 'guess-balance',
};

/** The command word of a `$` line, lowercased and without the `$` (`$Attack axe` → `attack`). */
export const commandNameOf = (content: string): string => (content.trim().slice(1).split(/\s+/)[0] ?? '').toLowerCase();

/**
 * Reads a chat line: `$game raidboss 5`, `$attack axe`, `$gmb 1,234`, `$gmb end 1234.50`,
 * `$hero am`, `$mmr`, `$rank`. The command name is matched in any letter case. Pure.
 */
export function parseChatIntent(content: string): ChatIntent | null {
  const trimmed = content.trim();
  if (!trimmed.startsWith(commandPrefix)) return null;
  const [first = '', ...args] = trimmed.slice(commandPrefix.length).split(/\s+/);
  const name = commandKey(first);
  if (!builtInCommandNames.has(name)) return null;
  switch (name) {
    case 'game':
      return parseStart(args);
    case 'attack':
      return { kind: 'attack', weapon: args[0] ?? null };
    case 'gmb':
      return parseGmb(args);
    case 'hero':
      return { kind: 'hero', query: args.join(' ') };
    case 'mmr':
    case 'rank':
      return { kind: 'mmr' };
    default:
      return null;
  }
}

function parseStart(args: string[]): ChatIntent {
  const game = gameAliases[(args[0] ?? '').toLowerCase()];
  if (!game) return { kind: 'start-usage' };
  const durationMinutes = parseDuration(args[1]);
  if (durationMinutes === null) return { kind: 'start-bad-duration' };
  return { kind: 'start', game, durationMinutes };
}

/** Whole minutes from 1 to 60; 5 when left out; null otherwise. */
export function parseDuration(text: string | undefined): number | null {
  if (text === undefined) return gameDurationLimits.default;
  if (!/^\d{1,3}$/.test(text)) return null;
  const minutes = Number(text);
  return minutes >= gameDurationLimits.min && minutes <= gameDurationLimits.max ? minutes : null;
}

function parseGmb(args: string[]): ChatIntent {
  const [first, second] = args;
  if (first?.toLowerCase() === 'end') {
    const balanceCents = second === undefined ? null : parseAmount(second);
    return balanceCents === null ? { kind: 'reveal-usage' } : { kind: 'reveal', balanceCents };
  }
  const cents = first === undefined ? null : parseAmount(first);
  return cents === null ? { kind: 'guess-usage' } : { kind: 'guess', cents };
}

/** The broadcaster: the channel's own Kick user, or whoever carries Kick's `broadcaster` badge. */
export function isBroadcaster(
  sender: { userId: string; badgeTypes: readonly string[] },
  broadcasterUserId: string,
): boolean {
  return (
    (sender.userId !== '' && sender.userId !== '0' && sender.userId === broadcasterUserId) ||
    sender.badgeTypes.some((type) => type.toLowerCase() === 'broadcaster')
  );
}
