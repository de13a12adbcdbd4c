import type { Clock } from '@kickstand/platform/clock';
import type { Filter } from '@kickstand/platform/store';
import type { App } from './app-settings';
import { createUlidFactory } from './ids';
import { subscribableEventTypes } from './payloads';
import type { EventSubscriptionDoc, Repository } from './repository';
import { RuleError } from './rules';

export interface RequestedEvent {
  name: string;
  version: number;
}

export interface SubscribeResult {
  name: string;
  version: number;
  subscription_id: string;
  error: string;
}

export interface EventSubscriptions {
  /**
   * One result per requested event, each succeeding or failing on its own. Subscribing twice makes
   * a second subscription, as on Kick. Over the app's limit, nothing is created.
   */
  subscribe(broadcasterUserId: number, events: readonly RequestedEvent[]): Promise<SubscribeResult[]>;
  list(filter: { broadcasterUserId?: number }): Promise<EventSubscriptionDoc[]>;
  /** Deletes the given ids, within one channel when given; unknown ids are ignored. */
  remove(ids: readonly string[], onlyBroadcasterUserId?: number): Promise<number>;
  /** Kick's webhook switch turned off: every subscription of the app goes. */
  removeAll(): Promise<number>;
  /** Real Kick dropping subscriptions without notice: of one channel and/or one event type, or all. */
  removeWhere(filter: { broadcasterUserId?: number; event?: string }): Promise<number>;
}

export function createEventSubscriptions(deps: { repo: Repository; app: App; clock: Clock }): EventSubscriptions {
  const { repo, app, clock } = deps;
  const ulid = createUlidFactory();

  function problemWith(event: RequestedEvent): string {
    if (!subscribableEventTypes.includes(event.name)) return 'event not found';
    if (event.version !== 1) return 'event version not supported';
    return '';
  }

  return {
    async subscribe(broadcasterUserId, events) {
      const settings = app.settings();
      if (!settings.isWebhookEnabled) throw new RuleError('webhooks-disabled', 'webhooks are not enabled for this app');
      const problems = events.map(problemWith);
      const wanted = problems.filter((problem) => problem === '').length;
      const existing = await repo.subscriptions.count({ appId: app.appId() });
      if (existing + wanted > settings.subscriptionLimit) {
        throw new RuleError('subscription-limit', 'event subscription limit reached');
      }
      const results: SubscribeResult[] = [];
      for (const [index, event] of events.entries()) {
        const problem = problems[index] ?? '';
        if (problem) {
          results.push({ name: event.name, version: event.version, subscription_id: '', error: problem });
          continue;
        }
        const now = clock.now();
        const created = await repo.subscriptions.insertOne({
          _id: ulid(now.getTime()),
          appId: app.appId(),
          broadcasterUserId,
          event: event.name,
          version: event.version,
          method: 'webhook',
          createdAt: now,
          updatedAt: now,
          consecutiveFailures: 0,
        });
        results.push({ name: event.name, version: event.version, subscription_id: created._id, error: '' });
      }
      return results;
    },

    list({ broadcasterUserId }) {
      const filter: Filter = { appId: app.appId() };
      if (broadcasterUserId !== undefined) filter.broadcasterUserId = broadcasterUserId;
      return repo.subscriptions.find(filter, { sort: { _id: 1 } });
    },

    remove(ids, onlyBroadcasterUserId) {
      const filter: Filter = { appId: app.appId(), _id: { $in: [...ids] } };
      if (onlyBroadcasterUserId !== undefined) filter.broadcasterUserId = onlyBroadcasterUserId;
      return repo.subscriptions.deleteMany(filter);
    },

    removeAll: () => repo.subscriptions.deleteMany({ appId: app.appId() }),

    removeWhere({ broadcasterUserId, event }) {
      const filter: Filter = { appId: app.appId() };
      if (broadcasterUserId !== undefined) filter.broadcasterUserId = broadcasterUserId;
      if (event !== undefined) filter.event = event;
      return repo.subscriptions.deleteMany(filter);
    },
  };
}
