import { truncateForChat } from '@kickstand/chat-language';

/**
 * What a game decision wants said and told, written into the channel's document in the same
 * atomic update as the state (the outbox, STYLE habit 7). The relay turns each entry into a
 * `chat.send` or a `game.event` and then pulls it. Every id is built from the input (the chat
 * message id, or the game id and the announcement name), so a replay or a second relay publishes
 * the same key again instead of a new line.
 */
export type OutboxEntry = ChatLineEntry | GameEventEntry;

export interface ChatLineEntry {
  type: 'chat';
  /** The chat.send idempotency key: `game:<chat message id>` or `game:<game id>:<announcement>`. */
  id: string;
  ownerUserId: string;
  content: string;
  replyToMessageId?: string;
  replyToUsername?: string;
  /** chat.received.received_at (epoch ms) of the message that caused the line. */
  sourceReceivedAtMs?: number;
  /**
   * When the message that caused the line was sent (epoch ms, the chat input's sentAtMs): chat.send's
   * source_sent_at. Unset on a line no message caused, and on entries kept before it existed.
   */
  sourceSentAtMs?: number;
  /** The answered command, when the line answers one: published as command.executed beside chat.send. */
  executed?: ExecutedCommand;
  createdAtMs: number;
}

/** A command the games service answered, for the admin's analytics (command.executed). */
export interface ExecutedCommand {
  /** Lowercased, without the `$`. */
  command: string;
  kind: 'game' | 'built-in';
  invokedByUserId: string;
  invokedByUsername: string;
}

export type GameName = 'raid-boss' | 'guess-balance';
export type GameEventKindName = 'started' | 'attacked' | 'guessed' | 'announced' | 'ended';

export interface LeaderboardRow {
  rank: number;
  username: string;
  /** Total damage, or the guess in currency units (1234.5). */
  value: number;
}

export interface GameEventEntry {
  type: 'game-event';
  /** The game.event event_id, e.g. `rb-…:half-time`. */
  id: string;
  ownerUserId: string;
  gameId: string;
  game: GameName;
  kind: GameEventKindName;
  summary: string;
  actorUsername?: string;
  actorUserId?: string;
  endsAtMs: number;
  leaderboard: LeaderboardRow[];
  raidBoss?: { hp: number; maxHp: number; damage?: number; weapon?: string; isDefeated?: boolean };
  guessBalance?: { guess?: number; balance?: number; guessCount: number };
  createdAtMs: number;
}

/** Who and what a chat command came from. */
export interface ChatInput {
  messageId: string;
  ownerUserId: string;
  broadcasterUserId: string;
  broadcasterUsername: string;
  sender: { userId: string; username: string; isBroadcaster: boolean };
  /** chat.received.received_at in epoch ms, when known. */
  receivedAtMs?: number;
  /** The command the line asks for (`attack`, `hero`…), set once it is known to be one of ours. */
  command?: { name: string; kind: ExecutedCommand['kind'] };
  /**
   * When the viewer sent it (epoch ms): Kick's created_at bounded by the arrival (messageTimeMs
   * of the platform). The per-viewer cooldowns are judged on it, so a backlog plays every command
   * a viewer could have seen played. Unset: the processing time stands in.
   */
  sentAtMs?: number;
}

/** The answer to one chat message (at most one per message). */
export function replyTo(chat: ChatInput, content: string, nowMs: number): ChatLineEntry {
  const entry: ChatLineEntry = {
    type: 'chat',
    id: `game:${chat.messageId}`,
    ownerUserId: chat.ownerUserId,
    content: truncateForChat(content),
    replyToMessageId: chat.messageId,
    replyToUsername: chat.sender.username,
    createdAtMs: nowMs,
  };
  if (chat.receivedAtMs !== undefined) entry.sourceReceivedAtMs = chat.receivedAtMs;
  if (chat.sentAtMs !== undefined) entry.sourceSentAtMs = chat.sentAtMs;
  if (chat.command) {
    entry.executed = {
      command: chat.command.name,
      kind: chat.command.kind,
      invokedByUserId: chat.sender.userId,
      invokedByUsername: chat.sender.username,
    };
  }
  return entry;
}

/** A line the game says on its own (a timed or threshold announcement, the end). */
export function announce(
  game: { id: string; ownerUserId: string },
  name: string,
  content: string,
  nowMs: number,
): ChatLineEntry {
  return {
    type: 'chat',
    id: `game:${game.id}:${name}`,
    ownerUserId: game.ownerUserId,
    content: truncateForChat(content),
    createdAtMs: nowMs,
  };
}
