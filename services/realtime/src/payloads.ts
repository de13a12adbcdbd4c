import type { TopicMessage } from '@kickstand/platform/bus';
import type {
  BotErrorPayload,
  BotStatusPayload,
  ChatMessagePayload,
  CommandExecutedPayload,
  MessageSentPayload,
  NotListeningReason,
} from '@kickstand/platform/socket-events';
import { notListeningReasons as contractNotListeningReasons } from '@kickstand/api-contract';
import { cutChatLine } from '@kickstand/platform/chat';
import { BotConnectionStatus, timestampDate } from '@kickstand/proto';

/**
 * Bus message → socket payload, pure. Each function builds the payload once; the caller emits it
 * to a room, so a chat line costs one mapping whatever the number of sockets. Chat text is cut to
 * Kick's 500 characters here, so nothing longer is shown live or kept in the history.
 */

/** How the bot's own lines are shown in the live chat (the spec's @{product}). */
export const botUsername = 'Kickstand';

type ChatReceived = TopicMessage<'chat.received'>;
type ChatSent = TopicMessage<'chat.sent'>;
type BotStatus = TopicMessage<'bot.status'>;
type CommandExecuted = TopicMessage<'command.executed'>;
type Timestamp = NonNullable<ChatReceived['createdAt']>;

/**
 * The last timestamp written as ISO 8601: Kick's `created_at` has whole seconds, so at chat rate
 * most lines carry the one the line before had (a Date and its ISO string less per line).
 */
let lastIso = { seconds: -1n, nanos: -1, iso: '' };

/** A protobuf Timestamp as ISO 8601, or `fallback` when the message has none. */
export function isoOf(timestamp: Timestamp | undefined, fallback: Date): string {
  if (!timestamp) return fallback.toISOString();
  const { seconds, nanos } = timestamp;
  if (seconds !== lastIso.seconds || nanos !== lastIso.nanos) {
    lastIso = { seconds, nanos, iso: timestampDate(timestamp).toISOString() };
  }
  return lastIso.iso;
}

/** A protobuf Timestamp as a Date, or `fallback` when the message has none (the time `isoOf` writes). */
export function dateOf(timestamp: Timestamp | undefined, fallback: Date): Date {
  return timestamp ? timestampDate(timestamp) : fallback;
}

/** The first timestamp the message has, in order of preference, else `now`. */
function firstIso(now: Date, ...timestamps: Array<Timestamp | undefined>): string {
  return isoOf(
    timestamps.find((timestamp) => timestamp !== undefined),
    now,
  );
}

/** A chatter's line. The caller skips `is_from_bot` lines: the bot's lines come from chat.sent. */
export function chatMessageFromReceived(message: ChatReceived, now: Date): ChatMessagePayload {
  const badges = message.sender?.identity?.badges ?? [];
  const types = badges.map((badge) => badge.type);
  return {
    id: message.messageId || message.eventId,
    username: message.sender?.username ?? '',
    content: cutChatLine(message.content),
    timestamp: firstIso(now, message.createdAt, message.receivedAt, message.occurredAt),
    replyTo: message.repliesTo?.sender?.username || null,
    isModerator: types.includes('moderator'),
    isSubscriber: types.includes('subscriber'),
    badges: types.map((type) => ({ type })),
    isBot: false,
  };
}

/** The bot's line for the chat log, once Kick accepted it (`is_sent`). */
export function chatMessageFromSent(message: ChatSent, now: Date): ChatMessagePayload {
  return {
    id: message.messageId || message.idempotencyKey || message.eventId,
    username: botUsername,
    content: cutChatLine(message.content),
    timestamp: firstIso(now, message.sentAt, message.occurredAt),
    replyTo: message.replyToUsername || null,
    isModerator: false,
    isSubscriber: false,
    badges: [],
    isBot: true,
  };
}

export function messageSentFrom(message: ChatSent, now: Date): MessageSentPayload {
  return {
    content: cutChatLine(message.content),
    timestamp: firstIso(now, message.sentAt, message.occurredAt),
    replyTo: message.replyToUsername || null,
  };
}

export function botErrorFromFailedSend(message: ChatSent, now: Date): BotErrorPayload {
  return {
    message: `The bot could not send a message: ${message.error || 'unknown error'}`,
    timestamp: firstIso(now, message.sentAt, message.occurredAt),
  };
}

/** CONNECTED is `connected`; DISCONNECTED, ERROR and anything unknown are `disconnected`. */
export function botStatusFrom(message: BotStatus): BotStatusPayload {
  const connected = message.status === BotConnectionStatus.CONNECTED;
  return {
    isRunning: message.isRunning,
    isConnected: message.isConnected,
    connected,
    status: connected ? 'connected' : 'disconnected',
    commands: message.commandCount,
    notListeningReason: notListeningReasonOf(message.notListeningReason),
    error: message.error,
  };
}

const notListeningReasons: ReadonlySet<string> = new Set<NotListeningReason>(contractNotListeningReasons);

const isNotListeningReason = (code: string): code is NotListeningReason => notListeningReasons.has(code);

/** bot.status's reason code; '' (listening) and codes this version does not know are null. */
const notListeningReasonOf = (code: string): NotListeningReason | null => (isNotListeningReason(code) ? code : null);

/** Only for status ERROR: the error to show next to the new state. */
export function botErrorFromStatus(message: BotStatus, now: Date): BotErrorPayload | undefined {
  if (message.status !== BotConnectionStatus.ERROR) return undefined;
  return {
    message: message.error || 'The bot ran into an error.',
    timestamp: firstIso(now, message.occurredAt),
  };
}

export function commandExecutedFrom(message: CommandExecuted, now: Date): CommandExecutedPayload {
  return {
    command: message.command,
    user: message.invokedByUsername,
    response: cutChatLine(message.response),
    timestamp: firstIso(now, message.executedAt, message.occurredAt),
  };
}
