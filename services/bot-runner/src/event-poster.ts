import type { TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { ChannelDoc, ChannelsRepository, StatusUpdate, TimerPost } from './channels';
import type { EventSettingsRepository } from './event-settings';
import { batchLines, fillTemplate, thanksOf } from './event-thanks';
import type { TimerBot } from './timer-schedule';

/**
 * Event messages (issue 20 items 1 and 2). A thanked event (follow, subscription, gift, Kicks,
 * reward) joins its channel's batch in the store (`channels.pendingThanks`), unless its key was
 * seen before (a second delivery). Once the batch's oldest event is `windowMs` old, the batch is
 * taken out and its lines (one per kind: the streamer's template for one event, a burst line for
 * more) go into the channel's outbox in ONE atomic write; the outbox relay publishes them as
 * chat.send with an idempotency key per line. So a restart neither loses a batch (it is stored)
 * nor says it twice (taken once, keyed), and two instances taking it at once take it once.
 *
 * Who takes a batch: kick.event is keyed by the broadcaster, so one instance at a time reads a
 * channel's events; it arms a timer for the window. A sweep (at start and every `sweepMs`) takes
 * batches an instance left behind (a restart, a rebalance).
 *
 * Go-live and offline: the status write that changes live ↔ offline carries the message
 * (channels.applyStatus), so a repeated delivery announces nothing.
 */
export interface EventPoster {
  onThanks(message: TopicMessage<'kick.event'>): Promise<void>;
  /** The go-live or offline message for a status update, if the streamer has it on and the bot runs. */
  announcement(
    message: TopicMessage<'kick.event'>,
    update: StatusUpdate,
  ): Promise<((before: ChannelDoc) => TimerPost | undefined) | undefined>;
  /** Takes the channel's batch out if its window is over. */
  flushChannel(userId: string): Promise<void>;
  /** Every channel whose window is over. */
  flushDue(): Promise<void>;
  start(): Promise<void>;
  stop(): void;
}

export interface EventPosterDeps {
  channels: ChannelsRepository;
  settings: EventSettingsRepository;
  botOf(userId: string): TimerBot | undefined;
  /** Publishes the channel's outbox (the timer scheduler's relay: one path for the bot's own posts). */
  posts: { flushPosts(userId: string): Promise<void> };
  clock: Clock;
  log: Logger;
  windowMs: number;
  sweepMs?: number;
}

/** A burst within this long is one line (BotRunnerOptions.eventBatchWindowMs). */
export const eventBatchWindowMs = 5_000;

const runsFor = (bot: TimerBot | undefined, broadcasterUserId: string): boolean =>
  bot !== undefined && bot.isRunning && bot.broadcasterUserId === broadcasterUserId;

export function createEventPoster(deps: EventPosterDeps): EventPoster {
  const { channels, settings, clock, log, windowMs } = deps;
  const armed = new Map<string, NodeJS.Timeout>();
  let sweep: NodeJS.Timeout | undefined;
  let stopped = false;

  function arm(userId: string): void {
    if (stopped || armed.has(userId)) return;
    const timer = setTimeout(() => {
      armed.delete(userId);
      void flushChannel(userId).catch((err: unknown) =>
        log.error({ err, userId }, 'could not post event messages; the sweep retries'),
      );
    }, windowMs);
    timer.unref();
    armed.set(userId, timer);
  }

  async function flushChannel(userId: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const doc = await channels.get(userId);
      const pending = doc?.pendingThanks ?? [];
      if (!doc || pending.length === 0) return;
      const oldestMs = Math.min(...pending.map((event) => event.atMs));
      if (oldestMs + windowMs > clock.now().getTime()) {
        arm(userId); // not yet: look again later
        return;
      }
      const current = await settings.get(userId);
      const version = doc.thanksVersion ?? 0;
      const posts: TimerPost[] = batchLines(pending, (kind) => current[kind]).map(({ kind, content }) => {
        const id = `${userId}:${version}:${kind}`;
        return {
          id,
          idempotencyKey: `event:${id}`,
          broadcasterUserId: doc.broadcasterUserId,
          content,
          occurredAt: clock.now(),
        };
      });
      const taken = await channels.takeThanks(doc, posts);
      if (!taken) continue; // an event joined (or another instance took it): read again
      if (posts.length > 0) await deps.posts.flushPosts(userId);
      return;
    }
  }

  async function flushDue(): Promise<void> {
    let after = '';
    for (;;) {
      const page = await channels.withPendingThanks(after, 200);
      for (const doc of page) await flushChannel(doc._id);
      const last = page.at(-1);
      if (!last || page.length < 200) return;
      after = last._id;
    }
  }

  return {
    async onThanks(message) {
      if (message.ownerUserId === '') return;
      const event = thanksOf(message, clock.now().getTime());
      if (!event || !runsFor(deps.botOf(message.ownerUserId), message.broadcasterUserId)) return;
      if (!(await settings.get(message.ownerUserId))[event.kind].enabled) return;
      if (await channels.addThanks(message.ownerUserId, message.broadcasterUserId, event)) arm(message.ownerUserId);
    },

    async announcement(message, update) {
      if (!runsFor(deps.botOf(message.ownerUserId), message.broadcasterUserId)) return undefined;
      const kind = update.isLive ? 'live' : 'offline';
      const setting = (await settings.get(message.ownerUserId))[kind];
      if (!setting.enabled) return undefined;
      const at = clock.now();
      return (before) => {
        // the event's key: a replay of this very event could only ever get the same one
        const id = `${message.ownerUserId}:${kind}:${message.kickMessageId || message.eventId}`;
        return {
          id,
          idempotencyKey: `stream:${id}`,
          broadcasterUserId: message.broadcasterUserId,
          content: fillTemplate(setting.template, { title: update.title ?? before.title, game: before.game }),
          occurredAt: at,
        };
      };
    },

    flushChannel,
    flushDue,

    async start() {
      stopped = false;
      await flushDue().catch((err: unknown) => log.error({ err }, 'could not post waiting event messages'));
      sweep = setInterval(() => {
        void flushDue().catch((err: unknown) => log.error({ err }, 'could not post waiting event messages'));
      }, deps.sweepMs ?? 15_000);
      sweep.unref();
    },

    stop() {
      stopped = true;
      clearInterval(sweep);
      for (const timer of armed.values()) clearTimeout(timer);
      armed.clear();
    },
  };
}
