/**
 * The socket.io contract between realtime (server) and the web app (client): event names and
 * payloads. TYPES ONLY (no runtime import or value), so the browser bundle can import it:
 * `import type { ServerToClientEvents } from '@kickstand/platform/socket-events'`.
 *
 * Names are the spec's kebab-case ones (§7 "Socket events received"); the new events,
 * `chat-history` and `channel-event`, follow the same form. Every socket sits in its user's room `user:<userId>`
 * and only ever receives that user's events. Timestamps are ISO 8601 strings.
 *
 * Connecting: path `/socket.io`, transports websocket then polling, and the sign-in token in
 * `auth: { token }` (an `Authorization: Bearer <token>` header works too). A missing, bad or
 * expired token, or a deactivated user, is refused with a `connect_error` whose message is
 * `unauthorized`.
 *
 * Typed use:
 *   server: `new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>()`
 *   client: `const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({ auth: { token } })`
 */

/** A chat badge; the live chat picks its icon from the first one's type. */
export interface ChatBadge {
  /** An open set: broadcaster, moderator, subscriber, vip, og, founder, sub_gifter, verified, staff… */
  type: string;
}

/** One line of the live chat (the spec's Chat message entity). */
export interface ChatMessagePayload {
  /** The chat message id: unique, so a client can drop a line it already has. */
  id: string;
  /** The chatter's Kick username; `Kickstand` for the bot's own lines. */
  username: string;
  /** Raw text; emotes appear as `[emote:<id>:<name>]` tokens. */
  content: string;
  /** ISO 8601: when the message was posted. */
  timestamp: string;
  /** The username of the chatter this line replies to, or null when it is not a reply. */
  replyTo: string | null;
  /** The sender has a `moderator` badge. */
  isModerator: boolean;
  /** The sender has a `subscriber` badge. */
  isSubscriber: boolean;
  /** In Kick's order (possibly empty; always empty for the bot). */
  badges: ChatBadge[];
  /** True for the bot's own lines (shown as replies, with the username @Kickstand). */
  isBot: boolean;
}

/** What every channel event line has. */
interface ChannelEventBase {
  /** Unique (from Kick's webhook message id), so a client can drop a line it already has. */
  id: string;
  /** ISO 8601: when it happened (Kick's time, else when Kick sent it). */
  timestamp: string;
  /** Who did it (the follower, the gifter…); null when anonymous or unknown. */
  username: string | null;
}

/**
 * Something that happened in the channel, shown as an event line in the live chat between the
 * chat messages (from Kick's webhooks: kicks.gifted, channel.reward.redemption.updated,
 * channel.followed, channel.subscription.new / .renewal / .gifts).
 */
export type ChannelEventPayload = ChannelEventBase &
  (
    | {
        /** KICKs (Kick's tips) were gifted. */
        kind: 'kicks-gifted';
        amount: number;
        /** The gift's name, e.g. `Rage Quit` (empty when Kick sent none). */
        giftName: string;
        /** The gifter's message (empty when none). */
        message: string;
      }
    | {
        /** A channel-points reward was redeemed, or its redemption accepted or rejected. */
        kind: 'reward-redeemed';
        reward: string;
        /** In channel points; null when Kick sent none. */
        cost: number | null;
        /** What the viewer typed (empty when none). */
        input: string;
        /** Kick's status: `pending`, `accepted`, `rejected` (an open set). */
        status: string;
      }
    | { kind: 'followed' }
    | {
        /** A first subscription (`subscribed`) or a renewal (`resubscribed`). */
        kind: 'subscribed' | 'resubscribed';
        /** Months subscribed; null when Kick sent none. */
        months: number | null;
      }
    | {
        /** Subscriptions gifted to others; `username` is the gifter (null: anonymous). */
        kind: 'subs-gifted';
        count: number;
      }
  );

/**
 * The last lines of the user's channel, at most 100 of both kinds together, each list oldest
 * first: merge them by timestamp to show one log.
 */
export interface ChatHistoryPayload {
  messages: ChatMessagePayload[];
  /** Event lines; absent from older servers' answers. */
  events?: ChannelEventPayload[];
}

/** The spec's Bot status entity. */
export interface BotStatusPayload {
  /** The streamer wants the bot on (started and not stopped). */
  isRunning: boolean;
  /** The channel's chat reaches the bot. */
  isConnected: boolean;
  /** Same as `status === 'connected'`. */
  connected: boolean;
  status: 'connected' | 'disconnected';
  /** How many custom commands the streamer has. */
  commands: number;
  /**
   * Why the bot does not hear its chat; null while it listens. Absent from servers that predate it.
   * deactivated · not-linked · needs-relink · disabled-by-admin · stopped · subscription-failed ·
   * unsubscribed-by-admin · subscription-lost · connecting
   */
  notListeningReason?: NotListeningReason | null;
  /** The failure's own words ('' without one). */
  error?: string;
}

export type NotListeningReason =
  | 'deactivated'
  | 'not-linked'
  | 'needs-relink'
  | 'disabled-by-admin'
  | 'stopped'
  | 'subscription-failed'
  | 'unsubscribed-by-admin'
  | 'subscription-lost'
  | 'connecting';

export interface BotErrorPayload {
  /** Human-readable, ready to show. */
  message: string;
  /** ISO 8601. */
  timestamp: string;
}

/** A line the bot posted in the channel's chat. */
export interface MessageSentPayload {
  content: string;
  /** ISO 8601: when Kick accepted it. */
  timestamp: string;
  /** The username of the chatter the bot replied to, or null. */
  replyTo: string | null;
}

export interface CommandExecutedPayload {
  /** The command's name without `$`. */
  command: string;
  /** The chatter who typed it. */
  user: string;
  /** What the bot answered. */
  response: string;
  /** ISO 8601. */
  timestamp: string;
}

export interface CommandAddedPayload {
  /** The name without `$`. */
  command: string;
  response: string;
}

export interface CommandRemovedPayload {
  /** The name without `$`. */
  command: string;
}

/** What realtime sends to the sockets of a user's room. */
export interface ServerToClientEvents {
  /**
   * Right after connecting (and on every reconnect), and as the answer to a `chat-history`
   * request. The socket has joined its room before the history is read, so a line may arrive as
   * `chat-message` just before the history that also holds it: replace the log with the
   * history, then keep appending `chat-message` lines whose id is not in it yet.
   */
  'chat-history': (history: ChatHistoryPayload) => void;
  /** A chat line of the user's channel: a chatter's message, or the bot's line once Kick accepted it. */
  'chat-message': (message: ChatMessagePayload) => void;
  /** Something happened in the channel (a gift, a redemption, a follow, a subscription): an event line. */
  'channel-event': (event: ChannelEventPayload) => void;
  /** The bot posted a line (also sent as a `chat-message` with `isBot: true` for the log). */
  'message-sent': (sent: MessageSentPayload) => void;
  'bot-status': (status: BotStatusPayload) => void;
  /** The bot failed (a `bot-status` with the new state comes too), or a line could not be sent. */
  'bot-error': (error: BotErrorPayload) => void;
  'command-executed': (executed: CommandExecutedPayload) => void;
  /** A command was added: reload the commands. */
  'command-added': (added: CommandAddedPayload) => void;
  /** A command was removed: reload the commands. */
  'command-removed': (removed: CommandRemovedPayload) => void;
}

/** What a client may send. */
export interface ClientToServerEvents {
  /** Asks for the chat history again; the answer comes through the acknowledgement. */
  'chat-history': (reply: (history: ChatHistoryPayload) => void) => void;
}

/** Between realtime instances: nothing (each instance reads every bus event itself). */
export type InterServerEvents = Record<string, never>;

/** What realtime keeps on each socket after the handshake (`socket.data`). */
export interface SocketData {
  userId: string;
  username: string;
  role: 'USER' | 'SUPER_ADMIN';
}
