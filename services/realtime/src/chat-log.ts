import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import { cutChatLine } from '@kickstand/platform/chat';
import type { Logger } from '@kickstand/platform/log';
import type { ChannelEventPayload, ChatHistoryPayload, ChatMessagePayload } from '@kickstand/platform/socket-events';
import type { ChatLineDoc, RealtimeRepository } from './repository';

function withinKickLimit(line: ChatMessagePayload): ChatMessagePayload {
  const content = cutChatLine(line.content);
  return content === line.content ? line : { ...line, content };
}

/** The spec's chat log size (§4, §9): the channel's last 100 lines (messages and event lines together). */
export const chatLogLimit = 100;

/**
 * A user's lines are trimmed at their first write after a start and then every 25th write: reads
 * take only the newest 100, so the up to 25 older lines in between never show, and the store is
 * spared a sorted query per line. The trim is the costliest query of the chat path (on FerretDB,
 * which cannot use the index, it scans the collection); trimming more rarely would keep more lines
 * (in memory, on the embedded store) for every channel.
 */
export const chatLogTrimEvery = 25;

export interface ChatLog {
  /**
   * Records a line that was just shown live. Returns at once: the write happens in the
   * background, in order per user, so the live fan-out never waits on the store.
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
 * The last 100 chat lines per channel, kept in the store so a reload, a restart or another
 * instance shows the same recent chat. Writes are idempotent (keyed by message id) and trim the
 * user's lines to the newest 100 (see chatLogTrimEvery), so every instance may write every line.
 */
export function createChatLog({ repo, log }: { repo: RealtimeRepository; log: Logger }): ChatLog {
  // Lines of one user are written and trimmed in order; a read of the history waits for them.
  const queue = createKeyedQueue();
  /** Lines written per user since the last trim; no entry: not trimmed since this instance started. */
  const sinceTrim = new Map<string, number>();

  const write = async (userId: string, doc: ChatLineDoc) => {
    try {
      await repo.saveLine(doc);
      const written = sinceTrim.get(userId);
      if (written === undefined || written + 1 >= chatLogTrimEvery) {
        await repo.trimLines(userId, chatLogLimit);
        sinceTrim.set(userId, 0);
      } else {
        sinceTrim.set(userId, written + 1);
      }
    } catch (error) {
      // The line was delivered live already; only a later reload misses it.
      log.error({ err: error, userId, messageId: doc._id }, 'could not keep a chat line for the history');
    }
  };

  const enqueue = (userId: string, doc: ChatLineDoc) => void queue.run(userId, () => write(userId, doc));

  return {
    append: (userId, line, orderedAt) => enqueue(userId, { _id: line.id, userId, at: orderedAt, payload: line }),
    appendEvent: (userId, event, orderedAt) => enqueue(userId, { _id: event.id, userId, at: orderedAt, event }),
    recent: async (userId) => {
      const lines = await queue.run(userId, () => repo.recentLines(userId, chatLogLimit));
      return {
        // lines kept before chat lines were cut on the way in are cut on the way out
        messages: lines.flatMap((line) => (line.payload ? [withinKickLimit(line.payload)] : [])),
        events: lines.flatMap((line) => (line.event ? [line.event] : [])),
      };
    },
    flush: () => queue.idle(),
  };
}
