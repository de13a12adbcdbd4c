import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { Play } from './play';
import type { GamesRepository } from './repository';

export interface Scheduler {
  /** Starts ticking every intervalMs (an unref'ed timer; none when intervalMs is 0). */
  start(): void;
  /** Stops ticking and waits for the tick in flight. */
  stop(): Promise<void>;
  /** One pass: every channel with a timer due (or an outbox left) that this instance can lease. */
  tick(): Promise<void>;
}

export interface SchedulerOptions {
  repo: GamesRepository;
  play: Play;
  clock: Clock;
  log: Logger;
  /** Names the lease holder; unique per instance. */
  instanceId: string;
  intervalMs: number;
  /** How long a lease lasts without renewal: another instance takes over a dead one's games after it. */
  leaseMs?: number;
  /** Channels looked at per tick. */
  batchSize?: number;
}

/**
 * Timers without timers per game: every tick asks the store which channels are due by the
 * injected clock, so a restart (or another instance) simply carries on from the store. With
 * several instances, each due channel is ticked by the one holding its lease (findOneAndUpdate on
 * `{ _id, leaseUntil < now or leaseOwner = me }`); the holder renews it on every tick, and when it
 * dies the lease runs out and another instance takes the channel over. The version guard on every
 * game write keeps even a late double tick from announcing anything twice.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { repo, play, clock, log, instanceId, intervalMs, leaseMs = 15_000, batchSize = 100 } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function tickOnce(): Promise<void> {
    const now = clock.now();
    const due = await repo.findDueChannels(now, batchSize);
    for (const channel of due) {
      try {
        const isMine = await repo.acquireLease(channel._id, instanceId, now, new Date(now.getTime() + leaseMs));
        if (isMine) await play.advance(channel._id);
      } catch (error) {
        log.error({ err: error, broadcasterUserId: channel._id }, 'game tick failed; retried on the next tick');
      }
    }
  }

  function tick(): Promise<void> {
    // one pass at a time: a slow store must not pile ticks up
    running ??= tickOnce().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    start: () => {
      if (timer || intervalMs <= 0) return;
      timer = setInterval(() => {
        tick().catch((error: unknown) => log.error({ err: error }, 'game scheduler tick failed'));
      }, intervalMs);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
    tick,
  };
}
