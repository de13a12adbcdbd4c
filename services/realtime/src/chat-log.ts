import { cutChatLine } from '@kickstand/platform/chat';
import type { Logger } from '@kickstand/platform/log';
import type { ChannelEventPayload, ChatHistoryPayload, ChatMessagePayload } from '@kickstand/platform/socket-events';
import { chatLogLimit, type ChatLine, type RealtimeRepository } from './repository';

export { chatLogLimit } from './repository';

function withinKickLimit(line: ChatMessagePayload): ChatMessagePayload {
  const content = cutChatLine(line.content);
  return content === line.content ? line : { ...line, content };
}

export interface ChatLog {
  /**
   * Records a line that was just shown live. Returns at once: the write happens in the
   * background, so the live fan-out never waits on the store.
   */
  append(userId: string, line: ChatMessagePayload, orderedAt: Date): void;
  /** The same for an event line (a gift, a redemption, a follow, a subscription). */
  appendEvent(userId: string, event: ChannelEventPayload, orderedAt: Date): void;
  /**
   * The last 100 lines of the user's channel (messages and events together), each kind oldest
   * first, including every line appended here before.
   */
  recent(userId: string): Promise<Required<ChatHistoryPayload>>;
  /** Waits for every background write (stop, tests). */
  flush(): Promise<void>;
}

/**
 * The last 100 chat lines per channel, kept in the store's recent log so a reload, a restart or
 * another instance shows the same recent chat. Writes are idempotent (keyed by message id), so
 * every instance may write every line; the store keeps each user's newest 100 (Store.recentLog),
 * and a read sees every line appended before it.
 */
export function createChatLog({ repo, log }: { repo: RealtimeRepository; log: Logger }): ChatLog {
  /** Writes not settled yet, for flush. */
  let writing = new Set<Promise<unknown>>();

  const save = (userId: string, id: string, at: Date, line: ChatLine) => {
    const write = repo.saveLine(userId, id, at, line).catch((error: unknown) => {
      // The line was delivered live already; only a later reload misses it.
      log.error({ err: error, userId, messageId: id }, 'could not keep a chat line for the history');
    });
    writing.add(write);
    void write.then(() => {
      writing.delete(write);
      // a new Set once it empties (docs/performance.md, "Garbage made in the old generation")
      if (writing.size === 0) writing = new Set();
    });
  };

  return {
    append: (userId, line, orderedAt) => save(userId, line.id, orderedAt, { payload: line }),
    appendEvent: (userId, event, orderedAt) => save(userId, event.id, orderedAt, { event }),
    recent: async (userId) => {
      const lines = await repo.recentLines(userId, chatLogLimit);
      return {
        // lines kept before chat lines were cut on the way in are cut on the way out
        messages: lines.flatMap(({ entry }) => (entry.payload ? [withinKickLimit(entry.payload)] : [])),
        events: lines.flatMap(({ entry }) => (entry.event ? [entry.event] : [])),
      };
    },
    flush: async () => {
      await Promise.all(writing);
    },
  };
}
