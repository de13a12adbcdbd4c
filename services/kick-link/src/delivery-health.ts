import type { Metrics } from '@kickstand/platform/metrics';

/**
 * What kick-link learns about each channel's connection to Kick, for the delivery-health views
 * (streamer dashboard, admin area). The webhook door, the chat sender and the subscription
 * reconciler report here; the recorder aggregates and stores (see delivery-health-store.ts when it
 * exists). Reports never throw and never wait on the store: they sit on the hot path.
 */

/** Who a reply was posted as (kick-api.md §5.1). */
export type SenderKind =
  /** The platform's bot account, linked by the admin: `type: "user"` with its token. */
  | 'bot-account'
  /** The streamer's token with `type: "bot"`. */
  | 'streamer-bot'
  /** The streamer's token with `type: "user"` (the fallback when `bot` is refused). */
  | 'streamer-user';

export const senderKinds: readonly SenderKind[] = ['bot-account', 'streamer-bot', 'streamer-user'];

/** Why the webhook door refused a delivery (the only three reasons it may: kick-api.md §8.10). */
export type RefusalReason = 'bad-signature' | 'stale-timestamp' | 'too-large';

/** What happened to one reply. `dropped`: too old to post (30 s), never posted late. */
export type ReplyResult = 'sent' | 'failed' | 'dropped';

export interface SubscriptionCheck {
  /** Events that were there. */
  present: string[];
  /** Events that were missing and were created again now. */
  recreated: string[];
  /** Events still missing (Kick refused them), with Kick's reason. */
  missing: { event: string; reason: string }[];
  /** Surplus duplicates removed. */
  duplicatesRemoved: number;
  checkedAt: Date;
}

export interface DeliveryHealthReporter {
  /** A delivery with a valid signature for this channel: Kick's timestamp and when it arrived. */
  deliveryAccepted(broadcasterUserId: string, sentAt: Date, receivedAt: Date): void;
  /**
   * A refused delivery. The channel is known only when the body could be read (a stale but correctly
   * signed delivery); null otherwise, counted across all channels.
   */
  deliveryRefused(broadcasterUserId: string | null, reason: RefusalReason): void;
  /** A correctly signed delivery that could not be used and was kept as a dead letter. */
  deadLettered(broadcasterUserId: string | null, reason: string): void;
  /** The outcome of one reply; `error` is Kick's answer in words a streamer understands. */
  reply(broadcasterUserId: string, sender: SenderKind, result: ReplyResult, error?: string): void;
  /** A Kick error met while acting for this channel (chat, subscriptions), in a streamer's words. */
  kickError(broadcasterUserId: string, message: string): void;
  /** The reconciler compared the channel's subscriptions with what it should have. */
  subscriptionsChecked(broadcasterUserId: string, check: SubscriptionCheck): void;
}

/** The Prometheus half of the reporter: every report counted in /metrics. */
export function createMetricsDeliveryHealth(service: string, metrics: Metrics): DeliveryHealthReporter {
  // one per delivery: bound to its labels once (a plain addition, metrics/bound-metrics.ts)
  const accepted = metrics.kickDeliveries.labels({ service, result: 'accepted' });
  /** Per sender kind and result, bound at the first reply of each. */
  const replies = new Map<string, { inc(): void }>();
  return {
    deliveryAccepted: () => accepted.inc(),
    deliveryRefused: (_channel, reason) => metrics.kickDeliveries.inc({ service, result: reason }),
    // the reason label is the first words of the reason only: labels must stay few
    deadLettered: (_channel, reason) => metrics.kickDeadLetters.inc({ service, reason: reasonLabel(reason) }),
    reply: (_channel, sender, result) => {
      const key = `${sender}|${result}`;
      let counter = replies.get(key);
      if (!counter) {
        counter = metrics.kickReplies.labels({ service, sender, result });
        replies.set(key, counter);
      }
      counter.inc();
    },
    kickError: () => undefined,
    subscriptionsChecked: () => undefined,
  };
}

/** Everything reported goes to each reporter (metrics, stored health). */
export function combineDeliveryHealth(...reporters: DeliveryHealthReporter[]): DeliveryHealthReporter {
  return {
    deliveryAccepted: (...args) => reporters.forEach((r) => r.deliveryAccepted(...args)),
    deliveryRefused: (...args) => reporters.forEach((r) => r.deliveryRefused(...args)),
    deadLettered: (...args) => reporters.forEach((r) => r.deadLettered(...args)),
    reply: (...args) => reporters.forEach((r) => r.reply(...args)),
    kickError: (...args) => reporters.forEach((r) => r.kickError(...args)),
    subscriptionsChecked: (...args) => reporters.forEach((r) => r.subscriptionsChecked(...args)),
  };
}

function reasonLabel(reason: string): string {
  return reason.split(':')[0]?.trim().slice(0, 40) || 'unknown';
}
