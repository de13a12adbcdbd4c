import type { SubscribableEvent } from '@kickstand/api-contract';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import { KickApiError, type KickClient, type KickSubscription } from './kick-client';
import type { AppTokens } from './kick-tokens';

/** The eight events the product subscribes to (spec §9), in the spec's order. */
// Spec §9's subscribable events are the HTTP contract's (the admin panel offers them).
export { isSubscribableEvent, subscribableEvents, type SubscribableEvent } from '@kickstand/api-contract';

export const chatEvent: SubscribableEvent = 'chat.message.sent';

/**
 * What a running bot is subscribed to, and what the reconciler keeps in place. Chat is required
 * (the bot does not start without it); the others are best effort: Kick may refuse them for an
 * app or a channel, which shows in delivery health and does not stop the bot. The livestream
 * events tell bot-runner whether the channel is live (timers post only then) and feed
 * `{uptime}`, `{game}`, `{title}` and the go-live / offline messages; follows, subscriptions and
 * gifts (with Kicks and rewards) are what its event messages thank for.
 */
export const botEvents = [
  chatEvent,
  'channel.followed',
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'kicks.gifted',
  'channel.reward.redemption.updated',
  'livestream.status.updated',
  'livestream.metadata.updated',
] as const;

export interface EnsureOutcome {
  /** One per requested event that was already there (the oldest, when Kick held several). */
  existing: KickSubscription[];
  created: KickSubscription[];
  /** Requested events Kick refused, with Kick's reason. */
  refused: { event: string; reason: string }[];
  /** Surplus duplicates that were deleted (duplicates deliver every event twice). */
  removedDuplicates: KickSubscription[];
}

/**
 * A channel's event subscriptions at Kick, managed with the app token (kick-api.md §8.2). Kick
 * makes a second subscription when the same event is posted twice, so every change reads the list
 * first and creates only what is missing; one channel is changed by one call at a time here.
 */
export interface ChannelSubscriptions {
  list(broadcasterUserId: string): Promise<KickSubscription[]>;
  /** Exactly one subscription per requested event afterwards (unless Kick refused some). */
  ensure(broadcasterUserId: string, events: readonly string[]): Promise<EnsureOutcome>;
  /** Deletes the channel's subscriptions that match; returns what was deleted. */
  remove(broadcasterUserId: string, which: (subscription: KickSubscription) => boolean): Promise<KickSubscription[]>;
}

export function createChannelSubscriptions(deps: { kick: KickClient; appTokens: AppTokens }): ChannelSubscriptions {
  const { kick, appTokens } = deps;
  const lock = createKeyedQueue();

  const list = (broadcasterUserId: string) =>
    appTokens.withAppToken((token) => kick.listSubscriptions(token, broadcasterUserId));

  return {
    list,

    ensure(broadcasterUserId, events) {
      return lock.run(broadcasterUserId, async () => {
        const wanted = [...new Set(events)];
        const current = await list(broadcasterUserId);
        const outcome: EnsureOutcome = { existing: [], created: [], refused: [], removedDuplicates: [] };
        const missing: string[] = [];
        for (const event of wanted) {
          const [first, ...surplus] = current.filter((subscription) => subscription.event === event);
          if (first) outcome.existing.push(first);
          else missing.push(event);
          outcome.removedDuplicates.push(...surplus);
        }
        if (outcome.removedDuplicates.length > 0) {
          const ids = outcome.removedDuplicates.map((subscription) => subscription.id);
          await appTokens.withAppToken((token) => kick.unsubscribe(token, ids));
        }
        if (missing.length === 0) return outcome;
        let results;
        try {
          results = await appTokens.withAppToken((token) => kick.subscribe(token, broadcasterUserId, missing));
        } catch (error) {
          // a refusal of the whole request ("event subscription limit reached") refuses each event
          if (!(error instanceof KickApiError) || error.status >= 500) throw error;
          outcome.refused.push(...missing.map((event) => ({ event, reason: error.reason })));
          return outcome;
        }
        for (const event of missing) {
          const result = results.find((item) => item.name === event);
          if (result && result.error === '' && result.subscriptionId !== '') {
            outcome.created.push({ id: result.subscriptionId, broadcasterUserId, event, version: 1 });
          } else {
            outcome.refused.push({ event, reason: result?.error || 'Kick did not create the subscription' });
          }
        }
        return outcome;
      });
    },

    remove(broadcasterUserId, which) {
      return lock.run(broadcasterUserId, async () => {
        const doomed = (await list(broadcasterUserId)).filter(which);
        if (doomed.length > 0) {
          const ids = doomed.map((subscription) => subscription.id);
          await appTokens.withAppToken((token) => kick.unsubscribe(token, ids));
        }
        return doomed;
      });
    },
  };
}
