import type { ChatIntent } from '../chat-commands';
import { gameDurationLimits } from '../catalog';
import type { Random } from '@kickstand/chat-language';
import {
  advanceGuessBalance,
  guess,
  guessBalanceNextDueMs,
  reveal,
  startGuessBalance,
  type GuessBalanceState,
} from './guess-balance';
import { replyTo, type ChatInput, type OutboxEntry } from './outbox';
import { advanceRaidBoss, attack, raidBossNextDueMs, startRaidBoss, type RaidBossState } from './raid-boss';

/** The game of a channel: the one running, or the last one (ended) until the next starts. */
export type GameState = RaidBossState | GuessBalanceState;

export type GameIntent = Extract<
  ChatIntent,
  {
    kind:
      'start' | 'start-usage' | 'start-bad-duration' | 'attack' | 'guess' | 'guess-usage' | 'reveal' | 'reveal-usage';
  }
>;

export interface ChannelStep {
  game: GameState | null;
  outbox: OutboxEntry[];
}

export const gameReplies = {
  broadcasterOnlyStart: 'Only the broadcaster can start a game.',
  broadcasterOnlyEnd: 'Only the broadcaster can end guess my balance.',
  startUsage: 'Start a game with $game raidboss [minutes] or $game gmb [minutes].',
  badDuration: `A game lasts ${gameDurationLimits.min} to ${gameDurationLimits.max} minutes, e.g. $game raidboss 10.`,
  alreadyRunning: 'A game is already running. Only one game at a time!',
  awaitingReveal: 'Guess my balance is waiting for its reveal: end it with $gmb end <balance> first.',
  noRaidBoss: 'There is no raid boss to attack right now.',
  noGuessing: 'There is no guess my balance game right now.',
  guessingClosed: 'Guessing is closed. Wait for the reveal!',
  guessUsage: 'Guess with $gmb <amount>, e.g. $gmb 1,234.50.',
  nothingToEnd: 'There is no guess my balance game to end.',
  revealUsage: 'Reveal the balance with $gmb end <balance>, e.g. $gmb end 1,234.50.',
} as const;

/** Whether a game still holds the channel (a closed guess my balance waits for its reveal). */
export function isInProgress(game: GameState | null): game is GameState {
  return game !== null && game.phase !== 'ended';
}

/** Makes every timed step that is due by `nowMs`, exactly once. */
export function advanceGame(game: GameState | null, nowMs: number): ChannelStep {
  if (!game) return { game, outbox: [] };
  const step = game.kind === 'raid-boss' ? advanceRaidBoss(game, nowMs) : advanceGuessBalance(game, nowMs);
  return { game: step.state, outbox: step.outbox };
}

/** When the scheduler must next look at the channel; null when no timer is pending. */
export function nextDueMs(game: GameState | null): number | null {
  if (!game) return null;
  return game.kind === 'raid-boss' ? raidBossNextDueMs(game) : guessBalanceNextDueMs(game);
}

/**
 * One game command in a channel: the timers are brought up to date first (an attack after the
 * deadline finds the boss gone), then the command is checked (broadcaster only, duration, one game
 * at a time) and played. Every answer is an outbox entry.
 */
export function playCommand(
  current: GameState | null,
  intent: GameIntent,
  chat: ChatInput,
  nowMs: number,
  random: Random,
): ChannelStep {
  const advanced = advanceGame(current, nowMs);
  const played = playOnUpToDate(advanced.game, intent, chat, nowMs, random);
  return { game: played.game, outbox: [...advanced.outbox, ...played.outbox] };
}

function playOnUpToDate(
  game: GameState | null,
  intent: GameIntent,
  chat: ChatInput,
  nowMs: number,
  random: Random,
): ChannelStep {
  const answer = (text: string): ChannelStep => ({ game, outbox: [replyTo(chat, text, nowMs)] });
  switch (intent.kind) {
    case 'start-usage':
    case 'start-bad-duration':
    case 'start': {
      if (!chat.sender.isBroadcaster) return answer(gameReplies.broadcasterOnlyStart);
      if (intent.kind === 'start-usage') return answer(gameReplies.startUsage);
      if (intent.kind === 'start-bad-duration') return answer(gameReplies.badDuration);
      if (isInProgress(game)) {
        return answer(game.phase === 'closed' ? gameReplies.awaitingReveal : gameReplies.alreadyRunning);
      }
      const started =
        intent.game === 'raid-boss'
          ? startRaidBoss({ id: `rb-${chat.messageId}`, chat, durationMinutes: intent.durationMinutes, nowMs, random })
          : startGuessBalance({ id: `gmb-${chat.messageId}`, chat, durationMinutes: intent.durationMinutes, nowMs });
      return { game: started.state, outbox: started.outbox };
    }
    case 'attack': {
      if (game?.kind !== 'raid-boss' || game.phase !== 'running') return answer(gameReplies.noRaidBoss);
      const step = attack(game, chat, intent.weapon, nowMs, random);
      return { game: step.state, outbox: step.outbox };
    }
    case 'guess':
    case 'guess-usage': {
      if (game?.kind !== 'guess-balance' || game.phase === 'ended') return answer(gameReplies.noGuessing);
      if (game.phase === 'closed') return answer(gameReplies.guessingClosed);
      if (intent.kind === 'guess-usage') return answer(gameReplies.guessUsage);
      const step = guess(game, chat, intent.cents, nowMs);
      return { game: step.state, outbox: step.outbox };
    }
    case 'reveal':
    case 'reveal-usage': {
      if (!chat.sender.isBroadcaster) return answer(gameReplies.broadcasterOnlyEnd);
      if (game?.kind !== 'guess-balance' || game.phase === 'ended') return answer(gameReplies.nothingToEnd);
      if (intent.kind === 'reveal-usage') return answer(gameReplies.revealUsage);
      const step = reveal(game, chat, intent.balanceCents, nowMs);
      return { game: step.state, outbox: step.outbox };
    }
  }
}
