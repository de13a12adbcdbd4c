import { messageTimeMaxSkewMs } from '@kickstand/platform/clock';
import { Fifo } from '@kickstand/platform/keyed-queue';
import { commandKey } from '@kickstand/chat-language';
import { commandCooldownMs, type Answer, type DispatchBot, type DispatchCommand } from './dispatch';
import { settingsOf, type StoredCommand } from './bots';
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
          commands: lookupOf(doc.commands),
        },
      });
    },
  };
}

/**
 * Each command under each alias and under its name. The commands service keeps them all distinct;
 * should the events ever disagree, a command's name wins over another's alias.
 */
function lookupOf(stored: readonly StoredCommand[]): Map<string, DispatchCommand> {
  const commands = stored.map((one): DispatchCommand => ({
    key: one.key,
    command: one.command,
    response: one.response,
    settings: settingsOf(one),
  }));
  const lookup = new Map<string, DispatchCommand>();
  for (const command of commands) {
    for (const alias of command.settings.aliases) lookup.set(commandKey(alias), command);
  }
  for (const command of commands) lookup.set(command.key, command);
  return lookup;
}

/** At start: every stored bot into the view. */
export async function loadBotsView(repo: BotsRepository, view: BotsView): Promise<void> {
  for (const doc of await repo.all()) view.apply(doc);
}

/** When each channel last answered each command (spec §9 cooldown), by the time the viewer sent the line. */
export interface Cooldowns {
  lastAnsweredAtMs(cooldownKey: string): number | undefined;
  /**
   * The line sent at `sentAtMs` was answered under a cooldown of `cooldownMs` (the spec's 1 s by
   * default); `now` is the processing time (for forgetting).
   */
  answered(cooldownKey: string, sentAtMs: number, now: Date, cooldownMs?: number): void;
}

interface CooldownEntry {
  sentAtMs: number;
  processedAtMs: number;
  /** Its cooldown plus the skew bound: how long after processedAtMs it can still decide anything. */
  keptMs: number;
}

/**
 * Entries are forgotten by processing time, which only moves forward, not by the lines' send
 * times, which interleave across channels in a backlog. An entry can decide something only while
 * a line sent less than a cooldown after it may still come: such a line arrived at most the message
 * time bound (messageTimeMaxSkewMs) after it, and is processed right after it (a channel's lines
 * are processed in arrival order), so the bound plus the cooldown is kept.
 *
 * One entry a key, changed in place when the key is answered again; an entry past its time counts
 * as gone at once and is deleted by a sweep of the whole map once as many answers came as it holds
 * entries (amortised O(1) an answer). Deleting and re-adding each answered key, and walking the map
 * from its start for the oldest, left a hole per answer that each later walk stepped over until the
 * table was rebuilt, a table of ~0.5 MB made in the old generation every few tens of seconds
 * (docs/performance.md, "Recent ids off the heap").
 */
export function createCooldowns(defaultCooldownMs = commandCooldownMs, maxSkewMs = messageTimeMaxSkewMs): Cooldowns {
  const entries = new Map<string, CooldownEntry>();
  /** The latest processing time answered at. */
  let nowMs = -Infinity;
  let answersSinceSweep = 0;
  const isLive = (entry: CooldownEntry) => nowMs - entry.processedAtMs < entry.keptMs;
  const liveEntry = (key: string): CooldownEntry | undefined => {
    const entry = entries.get(key);
    return entry && isLive(entry) ? entry : undefined;
  };
  const sweep = () => {
    for (const [key, entry] of entries) if (!isLive(entry)) entries.delete(key);
  };
  return {
    lastAnsweredAtMs: (key) => liveEntry(key)?.sentAtMs,
    answered: (key, sentAtMs, at, cooldownMs = defaultCooldownMs) => {
      const now = at.getTime();
      nowMs = Math.max(nowMs, now);
      const held = liveEntry(key);
      // a line sent before the one last answered (out of order) does not move the cooldown back
      const lastSentAtMs = Math.max(sentAtMs, held?.sentAtMs ?? sentAtMs);
      const entry = entries.get(key);
      if (entry) {
        entry.sentAtMs = lastSentAtMs;
        entry.processedAtMs = now;
        entry.keptMs = cooldownMs + maxSkewMs;
      } else {
        entries.set(key, { sentAtMs: lastSentAtMs, processedAtMs: now, keptMs: cooldownMs + maxSkewMs });
      }
      answersSinceSweep += 1;
      if (answersSinceSweep >= entries.size) {
        sweep();
        answersSinceSweep = 0;
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
  /** How far the line's reply got; `'answered'` once it went out in full (see `answered`). */
  get(messageId: string): ReplyProgress | 'answered' | undefined;
  start(messageId: string, answer: Answer, at: Date): ReplyProgress;
  /**
   * Both publishes of the line's reply are done: a redelivery has nothing left to do, so only that
   * is kept (its time, for the window) and not the progress (the answer, the inputs, the text: ~1 KB
   * a reply, 10 MB for the 10,000 kept; docs/performance.md, "Memory", third round).
   */
  answered(messageId: string): void;
}

export const recentRepliesKeptMs = 10 * 60_000;
export const recentRepliesMax = 10_000;

export function createRecentReplies(keptMs = recentRepliesKeptMs, max = recentRepliesMax): RecentReplies {
  /** A number: the line was answered in full at that time (ms). */
  const replies = new Map<string, ReplyProgress | number>();
  /**
   * The ids held, oldest first, for forgetting: walking the map from its start for them stepped over
   * every entry deleted since its table was last rebuilt, thousands of them once it held 10,000.
   */
  const order = new Fifo<string>();
  const receivedAtMs = (kept: ReplyProgress | number) => (typeof kept === 'number' ? kept : kept.receivedAtMs);
  return {
    get: (messageId) => {
      const kept = replies.get(messageId);
      return typeof kept === 'number' ? 'answered' : kept;
    },
    start: (messageId, answer, at) => {
      const now = at.getTime();
      for (let oldId = order.peek(); oldId !== undefined; oldId = order.peek()) {
        const old = replies.get(oldId);
        if (old !== undefined && replies.size < max && now - receivedAtMs(old) < keptMs) break;
        order.shift();
        replies.delete(oldId);
      }
      // started again while held: it keeps its place in the order (its age), as in the map
      if (!replies.has(messageId)) order.push(messageId);
      const progress: ReplyProgress = {
        answer,
        receivedAtMs: now,
        isChatSendPublished: false,
        isExecutedPublished: false,
      };
      replies.set(messageId, progress);
      return progress;
    },
    answered: (messageId) => {
      const kept = replies.get(messageId);
      // set on a key it holds: its place in the order (its age) stays
      if (kept !== undefined) replies.set(messageId, receivedAtMs(kept));
    },
  };
}
