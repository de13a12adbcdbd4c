// The realtime service's socket.io events (spec §7), from the one contract both ends share.
// Types only: `import type` is erased, so nothing of @kickstand/platform reaches the bundle
// (web/tsconfig.json maps the path to its source for the type checker).
import type {
  BotErrorPayload,
  BotStatusPayload,
  ChannelEventPayload,
  ChatHistoryPayload,
  ChatMessagePayload,
  CommandAddedPayload,
  CommandRemovedPayload,
  MessageSentPayload,
} from '@kickstand/platform/socket-events';

export type {
  ChatBadge,
  ClientToServerEvents,
  NotListeningReason,
  ServerToClientEvents,
} from '@kickstand/platform/socket-events';

export type BotStatus = BotStatusPayload;
export type BotErrorEvent = BotErrorPayload;
export type ChatMessage = ChatMessagePayload;
export type ChannelEvent = ChannelEventPayload;
export type ChatHistoryEvent = ChatHistoryPayload;
export type MessageSentEvent = MessageSentPayload;
export type CommandAddedEvent = CommandAddedPayload;
export type CommandRemovedEvent = CommandRemovedPayload;
