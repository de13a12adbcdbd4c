import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { chatLogLimit, productName } from '../../config/constants';
import { loggedOut, sessionExpired } from '../../lib/app-events';
import type { ChannelEvent, ChatMessage, MessageSentEvent } from '../../lib/socket-events';

export interface ChatLogState {
  /** Oldest first; at most the last 100 (spec §4). */
  messages: ChatMessage[];
  /** Event lines (gifts, redemptions, follows, subscriptions), oldest first; at most the last 100. */
  events: ChannelEvent[];
}

const initialState: ChatLogState = { messages: [], events: [] };

/** A bot line announced by message-sent before (or instead of) its chat-message. */
const sentIdPrefix = 'sent:';
/** A chat-message and a message-sent for the same bot line arrive within this window. */
const sameLineWindowMs = 30_000;

function keepLast<T>(lines: T[]): T[] {
  return lines.length > chatLogLimit ? lines.slice(lines.length - chatLogLimit) : lines;
}

function time(timestamp: string): number {
  const ms = new Date(timestamp).getTime();
  return Number.isNaN(ms) ? 0 : ms;
}

function isSameBotLine(line: ChatMessage, content: string, replyTo: string | null, timestamp: string): boolean {
  return (
    line.isBot === true &&
    line.content === content &&
    (line.replyTo ?? null) === (replyTo ?? null) &&
    Math.abs(time(line.timestamp) - time(timestamp)) <= sameLineWindowMs
  );
}

const isSent = (line: ChatMessage) => line.id.startsWith(sentIdPrefix);

function addLine(state: ChatLogState, message: ChatMessage) {
  if (state.messages.some((line) => line.id === message.id)) return;
  if (message.isBot) {
    const sameLine = (line: ChatMessage) => isSameBotLine(line, message.content, message.replyTo, message.timestamp);
    if (isSent(message)) {
      // announced by message-sent, but its chat-message is already here
      if (state.messages.some((line) => !isSent(line) && sameLine(line))) return;
    } else {
      // the same line may already be here from message-sent: replace it in place
      const index = state.messages.findIndex((line) => isSent(line) && sameLine(line));
      if (index >= 0) {
        state.messages[index] = message;
        return;
      }
    }
  }
  state.messages = keepLast([...state.messages, message]);
}

export const chatLogSlice = createSlice({
  name: 'chatLog',
  initialState,
  reducers: {
    /**
     * The last lines (chat-history on every connect, or GET /api/realtime/chat): they replace the
     * log; lines already here that the history does not hold and that are not older than its last
     * line (they arrived while it was on its way) stay after it.
     */
    chatHistoryReceived(state, action: PayloadAction<ChatMessage[]>) {
      const history = action.payload;
      const ids = new Set(history.map((line) => line.id));
      const last = history[history.length - 1];
      const since = last ? time(last.timestamp) : Number.NEGATIVE_INFINITY;
      const newer = state.messages.filter((line) => !ids.has(line.id) && time(line.timestamp) >= since);
      state.messages = [];
      for (const line of [...history, ...newer]) addLine(state, line);
    },
    chatLineReceived(state, action: PayloadAction<ChatMessage>) {
      addLine(state, action.payload);
    },
    /** The event lines of a history: like chatHistoryReceived, for events. */
    channelEventsReceived(state, action: PayloadAction<ChannelEvent[]>) {
      const history = action.payload;
      const ids = new Set(history.map((event) => event.id));
      const last = history[history.length - 1];
      const since = last ? time(last.timestamp) : Number.NEGATIVE_INFINITY;
      const newer = state.events.filter((event) => !ids.has(event.id) && time(event.timestamp) >= since);
      state.events = keepLast([...history, ...newer]);
    },
    channelEventReceived(state, action: PayloadAction<ChannelEvent>) {
      if (state.events.some((event) => event.id === action.payload.id)) return;
      state.events = keepLast([...state.events, action.payload]);
    },
    /** The bot sent a line; shown unless its chat-message is already here (never twice). */
    botMessageSent(state, action: PayloadAction<MessageSentEvent>) {
      const { content, timestamp, replyTo } = action.payload;
      if (state.messages.some((line) => isSameBotLine(line, content, replyTo, timestamp))) return;
      addLine(state, {
        id: `${sentIdPrefix}${timestamp}:${content}`,
        username: productName,
        content,
        timestamp,
        replyTo: replyTo ?? null,
        isModerator: false,
        isSubscriber: false,
        badges: [],
        isBot: true,
      });
    },
  },
  extraReducers: (builder) => {
    builder.addCase(loggedOut, () => initialState).addCase(sessionExpired, () => initialState);
  },
  selectors: {
    selectChatMessages: (state) => state.messages,
    selectChannelEvents: (state) => state.events,
  },
});

export const { chatHistoryReceived, chatLineReceived, botMessageSent, channelEventsReceived, channelEventReceived } =
  chatLogSlice.actions;
export const { selectChatMessages, selectChannelEvents } = chatLogSlice.selectors;
