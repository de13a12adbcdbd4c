import type { ChannelEventPayload, ChatMessagePayload } from '@kickstand/platform/socket-events';
import type { RecentItem, RecentLogSpec, Store } from '@kickstand/platform/store';

/** The spec's chat log size (§4, §9): the channel's last 100 lines (messages and event lines together). */
export const chatLogLimit = 100;

/** One line of one streamer's channel: a chat message (`payload`) or a channel event (`event`). */
export type ChatLine =
  { payload: ChatMessagePayload; event?: undefined } | { event: ChannelEventPayload; payload?: undefined };

/**
 * The store's recent log `chat-lines`: each user's newest 100 lines, ordered by `at` (the line's own
 * time). On MongoDB a line is the document earlier versions wrote (`{ _id, userId, at, payload |
 * event }`); the embedded store imports the collection of that name once (Store.recentLog).
 */
export const chatLinesSpec: RecentLogSpec = { keepPerKey: chatLogLimit, keyField: 'userId', atField: 'at' };

export interface RealtimeRepository {
  /**
   * Prepares the chat log (its index; the embedded store replays its log). The other calls open it
   * too when they come first: HTTP is served before the service's start() ends.
   */
  open(): Promise<void>;
  /**
   * Keeps the line unless it is already there (another instance, or a replay, wrote it). `id` is
   * the chat message id (`event:<Kick message id>` for events), so every instance writes the same line.
   * Resolves to whether it was added (RecentLog.append).
   */
  saveLine(userId: string, id: string, at: Date, line: ChatLine): Promise<boolean>;
  /** The newest `limit` lines (at most 100), oldest first. */
  recentLines(userId: string, limit: number): Promise<Array<RecentItem<ChatLine>>>;
}

export function createRealtimeRepository(store: Store): RealtimeRepository {
  const lines = store.recentLog<ChatLine>('chat-lines', chatLinesSpec);
  let opening: Promise<void> | undefined;
  let isOpen = false;
  const open = () =>
    (opening ??= lines.open().then(
      () => {
        isOpen = true;
      },
      (error: unknown) => {
        opening = undefined; // tried again by the next call
        throw error;
      },
    ));
  return {
    open,
    // no async wrapper once open: one promise fewer a chat line
    saveLine: (userId, id, at, line) =>
      isOpen ? lines.append(userId, id, at, line) : open().then(() => lines.append(userId, id, at, line)),
    recentLines: async (userId, limit) => {
      if (!isOpen) await open();
      return lines.recent(userId, limit);
    },
  };
}
