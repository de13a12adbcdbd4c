import type { DeliveryHealth, UnattributedHealth } from '@kickstand/api-contract';
import { senderKinds, type RefusalReason, type SenderKind } from './delivery-health';
import type { DeliveryHealthDoc, ReplyCounts } from './delivery-health-store';
import type { RunningBotDoc } from './running-bots';
import { chatEvent } from './subscriptions';

/** The thresholds of the unhealthy rule (see unhealthyReasons). */
export interface HealthRule {
  /** A running bot's live channel with no delivery for this long is silent. Default 10 minutes. */
  silentAfterMs: number;
  /** A live state older than this is not trusted (two reconcile intervals). Default 20 minutes. */
  liveValidMs: number;
  /** Failed replies, Kick errors and dead letters count for this long. Default 1 hour. */
  recentMs: number;
}

export const defaultHealthRule: HealthRule = {
  silentAfterMs: 10 * 60 * 1000,
  liveValidMs: 20 * 60 * 1000,
  recentMs: 60 * 60 * 1000,
};

const refusalReasons: readonly RefusalReason[] = ['bad-signature', 'stale-timestamp', 'too-large'];

/** One channel's delivery health as the dashboard and the admin area show it (the HTTP contract's). */
export type DeliveryHealthView = DeliveryHealth;
/** Refusals and dead letters that could not be put on a channel. */
export type UnattributedHealthView = UnattributedHealth;

const iso = (date: Date | undefined | null) => (date ? date.toISOString() : null);

function refusedOf(doc: DeliveryHealthDoc | null): Record<RefusalReason, number> {
  return Object.fromEntries(refusalReasons.map((reason) => [reason, doc?.refused?.[reason] ?? 0])) as Record<
    RefusalReason,
    number
  >;
}

const deadLettersOf = (doc: DeliveryHealthDoc | null) => ({
  count: doc?.deadLetters?.count ?? 0,
  lastAt: iso(doc?.deadLetters?.lastAt),
  lastReason: doc?.deadLetters?.lastReason ?? null,
});

/**
 * The unhealthy rule. A channel is unhealthy when any of these holds:
 * - its bot runs and the last check found the chat subscription missing (Kick refused to create it
 *   again); the best-effort events missing are shown, not counted;
 * - its bot runs, Kick said at the last check (at most liveValidMs ago) that the channel is live,
 *   and nothing arrived for silentAfterMs (counted from the bot's start when that is later);
 * - a reply failed or was dropped, a Kick error was met, or a delivery was dead-lettered within
 *   recentMs.
 */
export function unhealthyReasons(
  doc: DeliveryHealthDoc | null,
  bot: RunningBotDoc | null,
  now: Date,
  rule: HealthRule = defaultHealthRule,
): string[] {
  const problems: string[] = [];
  const isRunning = bot?.isRunning === true;
  const recent = (at: Date | undefined) => at !== undefined && now.getTime() - at.getTime() <= rule.recentMs;
  if (isRunning && doc?.subscriptions?.missing.some((missing) => missing.event === chatEvent)) {
    problems.push('The chat subscription is missing at Kick');
  }
  const live = doc?.live;
  if (isRunning && live?.isLive && now.getTime() - live.checkedAt.getTime() <= rule.liveValidMs) {
    const lastHeard = Math.max(doc?.deliveries?.lastReceivedAt?.getTime() ?? 0, bot?.runningSince?.getTime() ?? 0);
    if (now.getTime() - lastHeard > rule.silentAfterMs) {
      problems.push(
        `The channel is live but nothing arrived from Kick for ${Math.round(rule.silentAfterMs / 60_000)} minutes`,
      );
    }
  }
  if (recent(doc?.lastReplyFailure?.at)) problems.push('A reply failed in the last hour');
  if (recent(doc?.lastKickError?.at)) problems.push('Kick answered with an error in the last hour');
  if (recent(doc?.deadLetters?.lastAt)) problems.push('A delivery could not be used in the last hour');
  return problems;
}

export function viewOf(
  broadcasterUserId: string,
  kickUsername: string,
  doc: DeliveryHealthDoc | null,
  bot: RunningBotDoc | null,
  now: Date,
  rule: HealthRule = defaultHealthRule,
): DeliveryHealthView {
  const problems = unhealthyReasons(doc, bot, now, rule);
  const subscriptions = doc?.subscriptions;
  const replies = Object.fromEntries(
    senderKinds.map((sender) => {
      const counts = doc?.replies?.[sender];
      return [sender, { sent: counts?.sent ?? 0, failed: counts?.failed ?? 0, dropped: counts?.dropped ?? 0 }];
    }),
  ) as Record<SenderKind, ReplyCounts>;
  return {
    broadcasterUserId,
    kickUsername,
    isBotRunning: bot?.isRunning === true,
    isHealthy: problems.length === 0,
    problems,
    subscriptions: subscriptions
      ? {
          checkedAt: subscriptions.checkedAt.toISOString(),
          present: subscriptions.present,
          missing: subscriptions.missing,
          lastRecreatedAt: iso(subscriptions.lastRecreatedAt),
          lastRecreatedEvents: subscriptions.lastRecreatedEvents ?? [],
          duplicatesRemoved: subscriptions.duplicatesRemoved ?? 0,
        }
      : null,
    deliveries: {
      accepted: doc?.deliveries?.accepted ?? 0,
      lastReceivedAt: iso(doc?.deliveries?.lastReceivedAt),
      lastSentAt: iso(doc?.deliveries?.lastSentAt),
      lastLagMs: doc?.deliveries?.lastLagMs ?? null,
    },
    live: doc?.live ? { isLive: doc.live.isLive, checkedAt: doc.live.checkedAt.toISOString() } : null,
    refused: refusedOf(doc),
    deadLetters: deadLettersOf(doc),
    replies,
    lastReplyFailure: doc?.lastReplyFailure
      ? { ...doc.lastReplyFailure, at: doc.lastReplyFailure.at.toISOString() }
      : null,
    lastKickError: doc?.lastKickError
      ? { at: doc.lastKickError.at.toISOString(), message: doc.lastKickError.message }
      : null,
    updatedAt: iso(doc?.updatedAt),
  };
}

export function unattributedViewOf(doc: DeliveryHealthDoc | null): UnattributedHealthView {
  return { refused: refusedOf(doc), deadLetters: deadLettersOf(doc) };
}
