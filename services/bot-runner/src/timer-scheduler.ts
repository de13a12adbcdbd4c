import { randomUUID } from 'node:crypto';
import { truncateForChat } from '@kickstand/chat-language';
import type { KickstandBus } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { createOutboxRelay } from '@kickstand/platform/outbox';
import { ChatOrigin, timestampFromDate } from '@kickstand/proto';
import type { ChannelDoc, ChannelsRepository, TimerPost } from './channels';
import type { Lease } from './lease';
import { decideTimerPost, timerIdempotencyKey, type TimerBot } from './timer-schedule';
import { scheduledTimerOf, type TimersRepository } from './timers';

/**
 * The timers' one loop (no timer per channel): every `tickMs`, each instance writes the chat lines
 * it counted since the last tick, and the instance holding the lease walks the live channels that
 * have enabled timers, page by page (bounded memory), and posts what is due (timer-schedule.ts).
 *
 * A post is decided by one atomic write on the channel's `posts` number that also puts the post
 * in the channel's outbox; the outbox relay then publishes it as chat.send with the idempotency
 * key `timer:<post id>`. So a post is decided once even if two instances run the loop (a lease
 * handed over mid-tick), survives a crash before publishing, and kick-link posts it once.
 */
export interface TimerScheduler {
  /** A chat line (not the bot's) in the streamer's channel: counted toward the minimum chat lines. */
  countLine(userId: string): void;
  /** One round: flush the counted lines, then, with the lease, post what is due. */
  tick(): Promise<void>;
  /**
   * Publishes what waits in the channel's outbox (also event messages: the one path by which the
   * bot's own posts leave, timer-scheduler owns its relay).
   */
  flushPosts(userId: string): Promise<void>;
  /** Publishes posts left in outboxes, then ticks every tickMs. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface TimerSchedulerDeps {
  channels: ChannelsRepository;
  timers: TimersRepository;
  /** The streamer's bot as this instance's view knows it. */
  botOf(userId: string): TimerBot | undefined;
  bus: KickstandBus;
  lease: Lease;
  clock: Clock;
  log: Logger;
  /** 60 000 but in the sandbox's e2e runs. */
  minuteMs: number;
  tickMs: number;
  /** Channels read per page. */
  pageSize?: number;
  outboxRetryMs?: number;
}

/** How often the loop runs: a timer posts at most this late. */
export const timerTickMs = 15_000;
/** The lease outlives a few missed ticks before another instance takes over. */
export const timerLeaseTtlMs = 3 * timerTickMs;

export function createTimerScheduler(deps: TimerSchedulerDeps): TimerScheduler {
  const pageSize = deps.pageSize ?? 200;
  const counted = new Map<string, number>();
  let interval: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const relay = createOutboxRelay<ChannelDoc, TimerPost>({
    collection: deps.channels.collection,
    idField: 'id',
    name: 'timer posts',
    log: deps.log,
    ...(deps.outboxRetryMs !== undefined ? { retryMs: deps.outboxRetryMs } : {}),
    publish: async (doc, post) => {
      await deps.bus.publish('chat.send', post.broadcasterUserId, {
        eventId: post.id,
        occurredAt: timestampFromDate(post.occurredAt),
        idempotencyKey: post.idempotencyKey ?? timerIdempotencyKey(post.id),
        broadcasterUserId: post.broadcasterUserId,
        ownerUserId: doc._id,
        content: post.content,
        origin: ChatOrigin.SYSTEM,
        // made when the post was decided (kept with it): a relay publishing it again says the same
        sourceSentAt: timestampFromDate(post.occurredAt),
      });
    },
  });

  async function flushLines(): Promise<void> {
    const pending = [...counted];
    counted.clear();
    for (const [userId, lines] of pending) await deps.channels.addLines(userId, lines);
  }

  async function runChannel(channel: ChannelDoc): Promise<void> {
    const enabled = (await deps.timers.enabled(channel._id)).map(scheduledTimerOf);
    const now = deps.clock.now();
    const decision = decideTimerPost({
      channel,
      bot: deps.botOf(channel._id),
      enabledTimers: enabled,
      nowMs: now.getTime(),
      minuteMs: deps.minuteMs,
    });
    if (decision.kind === 'wait') return;
    const { timer } = decision;
    const post: TimerPost = {
      id: randomUUID(),
      timerId: timer.id,
      broadcasterUserId: channel.broadcasterUserId,
      content: truncateForChat(timer.message),
      occurredAt: now,
    };
    const claimed = await deps.channels.claimPost(
      channel,
      post,
      { createdAtMs: timer.createdAtMs, id: timer.id },
      now.getTime(),
    );
    if (!claimed) return; // another instance decided this round's post
    await deps.timers.markPosted(timer.id, now.getTime());
    await relay.flush(claimed._id);
  }

  async function round(): Promise<void> {
    await flushLines();
    if (!(await deps.lease.acquire())) return;
    let after = '';
    for (;;) {
      const page = await deps.channels.liveWithTimers(after, pageSize);
      for (const channel of page) await runChannel(channel);
      const last = page.at(-1);
      if (!last || page.length < pageSize) return;
      after = last._id;
    }
  }

  async function tick(): Promise<void> {
    // one round at a time: a slow store must not stack rounds
    if (running) return running;
    running = round()
      .catch((err: unknown) => deps.log.error({ err }, 'timer round failed; the next one retries'))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    countLine(userId) {
      counted.set(userId, (counted.get(userId) ?? 0) + 1);
    },
    tick,
    flushPosts: (userId) => relay.flush(userId),
    async start() {
      await relay.start();
      clearInterval(interval);
      interval = setInterval(() => void tick(), deps.tickMs);
      interval.unref();
    },
    async stop() {
      clearInterval(interval);
      interval = undefined;
      relay.stop();
      await running;
      await deps.lease.release().catch(() => undefined);
    },
  };
}
