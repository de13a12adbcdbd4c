import { announce, replyTo, type ChatInput, type GameEventEntry, type LeaderboardRow } from './outbox';
import type { GameStep } from './raid-boss';
import { formatMoney, minutesText, placeLabel } from './text';

/** Spec §9: 30 s between a viewer's guesses; the 5 closest guesses are shown with medals. */
export const guessBalanceRules = {
  cooldownMs: 30_000,
  topCount: 5,
  /** The largest amount accepted, in cents (one trillion). */
  maxCents: 100_000_000_000_000,
} as const;

/**
 * An amount as typed in chat, in cents: `1234`, `1,234`, `1234.50`, `1234.5`, `$1,234`,
 * `$1,234.56`. Thousands separators must group by three; at most two decimals; no sign, no
 * exponent. Null for anything else.
 */
export function parseAmount(text: string): number | null {
  const match = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const whole = Number((match[1] ?? '').replace(/,/g, ''));
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  if (!Number.isSafeInteger(cents) || cents > guessBalanceRules.maxCents) return null;
  return cents;
}

export interface Guess {
  userId: string;
  username: string;
  cents: number;
  /** When the guess now standing was made: a replaced guess takes the time of the new one. */
  guessedAtMs: number;
  /** Order of acceptance, to break ties between guesses made in the same millisecond. */
  seq: number;
  /** The guessedAtMs whose cooldown the viewer was already told about (one notice per cooldown). */
  cooldownNoticeForMs: number | null;
}

export type GuessBalanceAnnouncement = 'closed' | 'end';

export interface GuessBalanceState {
  kind: 'guess-balance';
  id: string;
  ownerUserId: string;
  /** guessing → closed (time ran out, waiting for the reveal) → ended (revealed). */
  phase: 'guessing' | 'closed' | 'ended';
  startedAtMs: number;
  endsAtMs: number;
  durationMinutes: number;
  broadcasterUsername: string;
  guesses: Guess[];
  nextSeq: number;
  balanceCents: number | null;
  announced: GuessBalanceAnnouncement[];
}

export function startGuessBalance(input: {
  id: string;
  chat: ChatInput;
  durationMinutes: number;
  nowMs: number;
}): GameStep<GuessBalanceState> {
  const { id, chat, durationMinutes, nowMs } = input;
  const state: GuessBalanceState = {
    kind: 'guess-balance',
    id,
    ownerUserId: chat.ownerUserId,
    phase: 'guessing',
    startedAtMs: nowMs,
    endsAtMs: nowMs + durationMinutes * 60_000,
    durationMinutes,
    broadcasterUsername: chat.broadcasterUsername,
    guesses: [],
    nextSeq: 1,
    balanceCents: null,
    announced: [],
  };
  const text =
    `💰 GUESS MY BALANCE! Guess the streamer's balance with $gmb <amount>, e.g. $gmb 1,234.50. ` +
    `You have ${minutesText(durationMinutes)}; only your latest guess counts, one guess every 30 seconds.`;
  return {
    state,
    outbox: [
      replyTo(chat, text, nowMs),
      event(state, 'started', `${chat.sender.username} started guess my balance`, nowMs, { actor: chat.sender }),
    ],
  };
}

/**
 * `$gmb <amount>` while guessing is open. A later guess replaces the viewer's earlier one. The 30 s
 * cooldown is judged by when the viewer sent the guess (`chat.sentAtMs`), not by `nowMs`, when it
 * is played; an earlier sent guess also wins a tie.
 */
export function guess(
  state: GuessBalanceState,
  chat: ChatInput,
  cents: number,
  nowMs: number,
): GameStep<GuessBalanceState> {
  const { userId, username } = chat.sender;
  const previous = state.guesses.find((entry) => entry.userId === userId);
  const sentAtMs = chat.sentAtMs ?? nowMs;
  if (previous) {
    // a guess sent before the standing one (out of order) waits the whole cooldown
    const waitMs = Math.min(
      guessBalanceRules.cooldownMs,
      previous.guessedAtMs + guessBalanceRules.cooldownMs - sentAtMs,
    );
    if (waitMs > 0) {
      if (previous.cooldownNoticeForMs === previous.guessedAtMs) return { state, outbox: [] };
      return {
        state: {
          ...state,
          guesses: state.guesses.map((entry) =>
            entry.userId === userId ? { ...entry, cooldownNoticeForMs: entry.guessedAtMs } : entry,
          ),
        },
        outbox: [replyTo(chat, `Wait ${Math.ceil(waitMs / 1000)}s before guessing again.`, nowMs)],
      };
    }
  }
  const standing: Guess = {
    userId,
    username,
    cents,
    guessedAtMs: sentAtMs,
    seq: state.nextSeq,
    cooldownNoticeForMs: null,
  };
  const next: GuessBalanceState = {
    ...state,
    guesses: [...state.guesses.filter((entry) => entry.userId !== userId), standing],
    nextSeq: state.nextSeq + 1,
  };
  const text = previous
    ? `Guess updated: ${formatMoney(cents)} (was ${formatMoney(previous.cents)}).`
    : `Guess recorded: ${formatMoney(cents)}.`;
  return {
    state: next,
    outbox: [
      replyTo(chat, text, nowMs),
      event(next, 'guessed', `${username} guessed ${formatMoney(cents)}`, nowMs, {
        eventId: `${state.id}:guess:${chat.messageId}`,
        actor: chat.sender,
        guess: cents / 100,
      }),
    ],
  };
}

/** At the deadline guessing closes and the broadcaster is reminded to reveal (once). */
export function advanceGuessBalance(state: GuessBalanceState, nowMs: number): GameStep<GuessBalanceState> {
  if (state.phase !== 'guessing' || nowMs < state.endsAtMs) return { state, outbox: [] };
  const closed: GuessBalanceState = { ...state, phase: 'closed', announced: [...state.announced, 'closed'] };
  const count = state.guesses.length;
  const text =
    `⌛ Guessing is closed with ${count} guess${count === 1 ? '' : 'es'}! ` +
    `@${state.broadcasterUsername}, reveal your balance with $gmb end <balance>.`;
  return {
    state: closed,
    outbox: [
      announce(closed, 'closed', text, nowMs),
      event(closed, 'announced', text, nowMs, { eventId: `${state.id}:closed` }),
    ],
  };
}

export function guessBalanceNextDueMs(state: GuessBalanceState): number | null {
  return state.phase === 'guessing' ? state.endsAtMs : null;
}

/** Closest first; a tie goes to whoever made their standing guess first. */
export function rankGuesses(guesses: readonly Guess[], balanceCents: number): Guess[] {
  return [...guesses].sort(
    (a, b) =>
      Math.abs(a.cents - balanceCents) - Math.abs(b.cents - balanceCents) ||
      a.guessedAtMs - b.guessedAtMs ||
      a.seq - b.seq,
  );
}

export function closestGuesses(
  guesses: readonly Guess[],
  balanceCents: number,
  count: number = guessBalanceRules.topCount,
): LeaderboardRow[] {
  return rankGuesses(guesses, balanceCents)
    .slice(0, count)
    .map((entry, index) => ({ rank: index + 1, username: entry.username, value: entry.cents / 100 }));
}

/** `$gmb end <balance>` by the broadcaster, while guessing or after it closed: the results. */
export function reveal(
  state: GuessBalanceState,
  chat: ChatInput,
  balanceCents: number,
  nowMs: number,
): GameStep<GuessBalanceState> {
  const ended: GuessBalanceState = {
    ...state,
    phase: 'ended',
    balanceCents,
    announced: [...state.announced, 'end'],
  };
  const rows = closestGuesses(state.guesses, balanceCents);
  const results =
    rows.length === 0
      ? 'Nobody guessed.'
      : rows
          .map((row) => `${placeLabel(row.rank)} ${row.username} (${formatMoney(Math.round(row.value * 100))})`)
          .join(' ');
  const text = `💰 The balance was ${formatMoney(balanceCents)}! ${results}`;
  return {
    state: ended,
    outbox: [
      replyTo(chat, text, nowMs),
      event(ended, 'ended', text, nowMs, {
        eventId: `${state.id}:end`,
        actor: chat.sender,
        balance: balanceCents / 100,
        leaderboard: rows,
      }),
    ],
  };
}

function event(
  state: GuessBalanceState,
  kind: GameEventEntry['kind'],
  summary: string,
  nowMs: number,
  options: {
    eventId?: string;
    actor?: { userId: string; username: string };
    guess?: number;
    balance?: number;
    leaderboard?: LeaderboardRow[];
  } = {},
): GameEventEntry {
  const guessBalance: NonNullable<GameEventEntry['guessBalance']> = { guessCount: state.guesses.length };
  if (options.guess !== undefined) guessBalance.guess = options.guess;
  if (options.balance !== undefined) guessBalance.balance = options.balance;
  const entry: GameEventEntry = {
    type: 'game-event',
    id: options.eventId ?? `${state.id}:${kind}`,
    ownerUserId: state.ownerUserId,
    gameId: state.id,
    game: 'guess-balance',
    kind,
    summary,
    endsAtMs: state.endsAtMs,
    leaderboard: options.leaderboard ?? [],
    guessBalance,
    createdAtMs: nowMs,
  };
  if (options.actor) {
    entry.actorUserId = options.actor.userId;
    entry.actorUsername = options.actor.username;
  }
  return entry;
}
