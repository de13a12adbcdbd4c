import { messageTimeMaxSkewMs } from '@kickstand/platform/clock';
import type { Answer, DispatchBot } from './dispatch';
import type { BotDoc, BotsRepository } from './repository';
import type { TemplateInputs } from './template-inputs';

/**
 * What the chat hot path reads, all in memory: no store read per chat line.
 *
 * - `BotsView`: per user, whether the bot runs, for which channel, and its commands. Loaded from
 *   the `bots` documents at start, then kept current with every document this instance writes and,
 *   for the writes of other instances, with bot.status, which every change publishes: each instance
 *   reads bot.status with a group of its own (`bot-runner.instance.<instance id>`) and reloads that user's
 *   document. Documents carry a version, so an older one never replaces a newer one.
 * - `Cooldowns` and `RecentReplies`: per channel. chat.received is keyed by the broadcaster, so one
 *   instance at a time handles a channel and memory is enough. After a rebalance or a restart the
 *   new instance starts empty: at worst one command is answered again within its second, or a
 *   replayed line is counted twice in `{count}`. The bot still never speaks twice for one line:
 *   kick-link claims the reply's idempotency key.
 */

export interface BotsView {
  get(userId: string): DispatchBot | undefined;
  /** Takes the document if it is newer than what is held. */
  apply(doc: BotDoc): void;
}

/** `onRunningCount` hears how many bots are switched on after each change (the bots-running gauge). */
export function createBotsView(onRunningCount?: (count: number) => void): BotsView {
  const bots = new Map<string, { version: number; bot: DispatchBot }>();
  let runningCount = 0;
  return {
    get: (userId) => bots.get(userId)?.bot,
    apply: (doc) => {
      const held = bots.get(doc._id);
      if (held && held.version >= doc.version) return;
      const wasRunning = held?.bot.isRunning ?? false;
      if (wasRunning !== doc.isRunning) {
        runningCount += doc.isRunning ? 1 : -1;
        onRunningCount?.(runningCount);
      }
      bots.set(doc._id, {
        version: doc.version,
        bot: {
          isRunning: doc.isRunning,
          broadcasterUserId: doc.kick?.broadcasterUserId ?? '0',
          commands: new Map(doc.commands.map(({ key, command, response }) => [key, { command, response }])),
        },
      });
    },
  };
}

/** At start: every stored bot into the view. */
export async function loadBotsView(repo: BotsRepository, view: BotsView): Promise<void> {
  for (const doc of await repo.all()) view.apply(doc);
}

/** When each channel last answered each command (spec §9 cooldown), by the time the viewer sent the line. */
export interface Cooldowns {
  lastAnsweredAtMs(cooldownKey: string): number | undefined;
  /** The line sent at `sentAtMs` was answered; `now` is the processing time (for forgetting). */
  answered(cooldownKey: string, sentAtMs: number, now: Date): void;
}

/**
 * Entries are forgotten by processing time, which only moves forward, not by the lines' send
 * times, which interleave across channels in a backlog. An entry can decide something only while
 * a line sent less than a cooldown after it may still come: such a line arrived at most the message
 * time bound (messageTimeMaxSkewMs) after it, and is processed right after it (a channel's lines
 * are processed in arrival order), so the bound plus the cooldown is kept.
 */
export function createCooldowns(cooldownMs: number, maxSkewMs = messageTimeMaxSkewMs): Cooldowns {
  const keptMs = cooldownMs + maxSkewMs;
  // insertion order is processing order (an answer moves its key to the end), so the oldest come first
  const lastAnswered = new Map<string, { sentAtMs: number; processedAtMs: number }>();
  return {
    lastAnsweredAtMs: (key) => lastAnswered.get(key)?.sentAtMs,
    answered: (key, sentAtMs, at) => {
      const now = at.getTime();
      const held = lastAnswered.get(key);
      lastAnswered.delete(key);
      // a line sent before the one last answered (out of order) does not move the cooldown back
      lastAnswered.set(key, { sentAtMs: Math.max(sentAtMs, held?.sentAtMs ?? sentAtMs), processedAtMs: now });
      for (const [oldKey, old] of lastAnswered) {
        if (now - old.processedAtMs < keptMs) break;
        lastAnswered.delete(oldKey);
      }
    },
  };
}

/** How far the answer to one chat line got: a redelivered line resumes here instead of starting over. */
export interface ReplyProgress {
  answer: Answer;
  receivedAtMs: number;
  count?: number;
  /** The named counters (after this line's changes) and the stream the response shows. */
  inputs?: TemplateInputs;
  content?: string;
  executedAt?: Date;
  isChatSendPublished: boolean;
  isExecutedPublished: boolean;
}

/** The chat lines answered lately, by chat message id. */
export interface RecentReplies {
  get(messageId: string): ReplyProgress | undefined;
  start(messageId: string, answer: Answer, at: Date): ReplyProgress;
}

export const recentRepliesKeptMs = 10 * 60_000;
export const recentRepliesMax = 10_000;

export function createRecentReplies(keptMs = recentRepliesKeptMs, max = recentRepliesMax): RecentReplies {
  const replies = new Map<string, ReplyProgress>();
  return {
    get: (messageId) => replies.get(messageId),
    start: (messageId, answer, at) => {
      const now = at.getTime();
      for (const [oldId, old] of replies) {
        if (replies.size < max && now - old.receivedAtMs < keptMs) break;
        replies.delete(oldId);
      }
      const progress: ReplyProgress = {
        answer,
        receivedAtMs: now,
        isChatSendPublished: false,
        isExecutedPublished: false,
      };
      replies.set(messageId, progress);
      return progress;
    },
  };
}
