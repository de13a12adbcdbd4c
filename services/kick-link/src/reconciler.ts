import type { TopicMessage } from '@kickstand/platform/bus';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { BotControlAction, timestampDate } from '@kickstand/proto';
import type { StoredDeliveryHealth } from './delivery-health-store';
import type { DeliveryHealthReporter } from './delivery-health';
import { kickProblem, type KickClient } from './kick-client';
import type { AppTokens } from './kick-tokens';
import type { KickLinkRepository } from './repository';
import type { RunningBots } from './running-bots';
import { botEvents, chatEvent, type ChannelSubscriptions } from './subscriptions';

export interface ReconcilerTiming {
  /** How often each running bot's subscriptions are checked. Default 10 minutes. */
  intervalMs: number;
  /** How often an instance looks for channels that are due. Default 1 minute. */
  tickMs: number;
  /**
   * After START, the first check waits this long: the START handler subscribes the chat itself,
   * and the reconciler then adds the best-effort events. Default 30 s.
   */
  afterStartMs: number;
}

export const defaultReconcilerTiming: ReconcilerTiming = {
  intervalMs: 10 * 60 * 1000,
  tickMs: 60 * 1000,
  afterStartMs: 30 * 1000,
};

export interface Reconciler {
  /** Keeps the running-bots read model from bot.control (call before the instruction's own handler). */
  recordBotControl(message: TopicMessage<'bot.control'>): Promise<void>;
  /** A first pass now, then one every tickMs (an unref'ed timer; none when tickMs is 0). */
  start(): void;
  /** Stops the timer and waits for the pass in flight. */
  stop(): Promise<void>;
  /** One pass: every running bot that is due and that this instance claims. */
  tick(): Promise<void>;
}

const batchSize = 100;

/**
 * Subscriptions that heal: every running bot's channel is compared with what it should have
 * (botEvents) every intervalMs; missing subscriptions are created again and duplicates removed
 * (ChannelSubscriptions.ensure), and the outcome goes to delivery health. Chat is required, the
 * other events best effort. Several instances share the work through the claim on the read model
 * (running-bots.ts): a channel is reconciled by one instance at a time. Each check also asks Kick
 * whether the channel is live, for the "live but silent" rule of delivery health.
 */
export function createReconciler(deps: {
  repo: KickLinkRepository;
  runningBots: RunningBots;
  subscriptions: ChannelSubscriptions;
  kick: KickClient;
  appTokens: AppTokens;
  health: DeliveryHealthReporter;
  stored: Pick<StoredDeliveryHealth, 'liveChecked'>;
  clock: Clock;
  log: Logger;
  instanceId: string;
  timing?: Partial<ReconcilerTiming>;
}): Reconciler {
  const { repo, runningBots, subscriptions, kick, appTokens, health, stored, clock, log, instanceId } = deps;
  const given = Object.entries(deps.timing ?? {}).filter(([, value]) => value !== undefined);
  const timing: ReconcilerTiming = { ...defaultReconcilerTiming, ...Object.fromEntries(given) };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function reconcile(userId: string): Promise<void> {
    const link = await repo.links.byUser(userId);
    // without a usable link there is nothing to keep: the bot's own start reports that
    if (!link || link.status !== 'active') return;
    const channel = link.kickUserId;
    await runningBots.setChannel(userId, channel);
    try {
      const outcome = await subscriptions.ensure(channel, botEvents);
      health.subscriptionsChecked(channel, {
        present: outcome.existing.map((subscription) => subscription.event),
        recreated: outcome.created.map((subscription) => subscription.event),
        missing: outcome.refused,
        duplicatesRemoved: outcome.removedDuplicates.length,
        checkedAt: clock.now(),
      });
      const chatRefused = outcome.refused.find((refusal) => refusal.event === chatEvent);
      if (chatRefused) health.kickError(channel, `Kick refused the chat subscription: ${chatRefused.reason}`);
    } catch (error) {
      log.warn({ err: error, broadcasterUserId: channel }, 'could not reconcile the subscriptions at Kick');
      health.kickError(channel, `Could not check the event subscriptions: ${kickProblem(error)}`);
    }
    try {
      const live = await appTokens.withAppToken((token) => kick.liveChannels(token, [channel]));
      const isLive = live.get(channel);
      if (isLive !== undefined) stored.liveChecked(channel, isLive, clock.now());
    } catch (error) {
      log.warn({ err: error, broadcasterUserId: channel }, 'could not ask Kick whether the channel is live');
      health.kickError(channel, `Could not check whether the channel is live: ${kickProblem(error)}`);
    }
  }

  async function tickOnce(): Promise<void> {
    const now = clock.now();
    const until = new Date(now.getTime() + timing.intervalMs);
    for (const bot of await runningBots.due(now, batchSize)) {
      try {
        const claimed = await runningBots.claim(bot._id, instanceId, now, until);
        if (claimed) await reconcile(bot._id);
      } catch (error) {
        log.error({ err: error, userId: bot._id }, 'subscription reconcile failed; retried when next due');
      }
    }
  }

  function tick(): Promise<void> {
    // one pass at a time: a slow Kick must not pile passes up
    running ??= tickOnce().finally(() => {
      running = undefined;
    });
    return running;
  }

  const tickLogged = () => {
    tick().catch((error: unknown) => log.error({ err: error }, 'subscription reconcile pass failed'));
  };

  return {
    async recordBotControl(message) {
      if (message.userId === '') return;
      const isStart = message.action === BotControlAction.START;
      if (!isStart && message.action !== BotControlAction.STOP) return;
      const link = await repo.links.byUser(message.userId);
      const now = clock.now();
      await runningBots.record(message.userId, {
        isRunning: isStart,
        occurredAt: message.occurredAt ? timestampDate(message.occurredAt) : now,
        broadcasterUserId: link?.kickUserId ?? '',
        reconcileAt: isStart ? new Date(now.getTime() + timing.afterStartMs) : null,
      });
    },
    start() {
      if (timer || timing.tickMs <= 0) return;
      tickLogged();
      timer = setInterval(tickLogged, timing.tickMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
    tick,
  };
}
