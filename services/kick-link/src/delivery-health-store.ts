import { createPeriodicFlush, inSlices } from '@kickstand/platform/batch';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { Collection, Document, Store, Update } from '@kickstand/platform/store';
import type {
  DeliveryHealthReporter,
  RefusalReason,
  ReplyResult,
  SenderKind,
  SubscriptionCheck,
} from './delivery-health';

/** The document for what cannot be put on a channel (a delivery refused before its body was read). */
export const unattributedId = 'unattributed';

export type ReplyCounts = Record<ReplyResult, number>;

/**
 * One channel's delivery health (`_id` = broadcaster user id), or the unattributed one. Counters
 * are only ever `$inc`remented, so several kick-link instances can flush into the same document.
 * The "last …" fields are `$set` by each flush: between instances the later flush wins, which may
 * put a time a few seconds (one flush interval) back; nothing here is that precise.
 */
export interface DeliveryHealthDoc extends Document {
  deliveries?: { accepted: number; lastReceivedAt?: Date; lastSentAt?: Date; lastLagMs?: number };
  refused?: Partial<Record<RefusalReason, number>>;
  deadLetters?: { count: number; lastAt?: Date; lastReason?: string };
  replies?: Partial<Record<SenderKind, Partial<ReplyCounts>>>;
  lastReplyFailure?: { at: Date; sender: SenderKind; result: ReplyResult; error: string };
  lastKickError?: { at: Date; message: string };
  subscriptions?: {
    checkedAt: Date;
    present: string[];
    missing: { event: string; reason: string }[];
    /** Summed over all checks. */
    duplicatesRemoved?: number;
    /** The last check that had to create missing subscriptions, and what it created. */
    lastRecreatedAt?: Date;
    lastRecreatedEvents?: string[];
  };
  /** Whether the channel was live when the reconciler last asked Kick. */
  live?: { isLive: boolean; checkedAt: Date };
  updatedAt?: Date;
}

/** What one instance gathered for one channel since its last flush. */
interface Pending {
  accepted: number;
  /**
   * Epoch ms, changed in place: a new object (or the caller's Dates) each delivery would outlive the
   * young generation, one per channel a second (docs/performance.md, "Garbage made in the old generation").
   */
  lastDelivery?: { sentAtMs: number; receivedAtMs: number };
  refused: Map<RefusalReason, number>;
  deadLetters: number;
  lastDeadLetter?: { at: Date; reason: string };
  replies: Map<`${SenderKind}.${ReplyResult}`, number>;
  lastReplyFailure?: { at: Date; sender: SenderKind; result: ReplyResult; error: string };
  lastKickError?: { at: Date; message: string };
  check?: SubscriptionCheck;
  duplicatesRemoved: number;
  lastRecreated?: { at: Date; events: string[] };
  live?: { isLive: boolean; checkedAt: Date };
}

const emptyPending = (): Pending => ({
  accepted: 0,
  refused: new Map(),
  deadLetters: 0,
  replies: new Map(),
  duplicatesRemoved: 0,
});

const later = <T extends { at: Date }>(a: T | undefined, b: T | undefined): T | undefined =>
  !a ? b : !b ? a : b.at.getTime() >= a.at.getTime() ? b : a;

/** Folds `older` into `newer` (a failed flush is put back under what came since). */
function merge(older: Pending, newer: Pending): Pending {
  const sum = <K>(a: Map<K, number>, b: Map<K, number>) => {
    const out = new Map(a);
    for (const [key, count] of b) out.set(key, (out.get(key) ?? 0) + count);
    return out;
  };
  const lastDelivery =
    !older.lastDelivery || (newer.lastDelivery && newer.lastDelivery.receivedAtMs >= older.lastDelivery.receivedAtMs)
      ? newer.lastDelivery
      : older.lastDelivery;
  return {
    accepted: older.accepted + newer.accepted,
    lastDelivery,
    refused: sum(older.refused, newer.refused),
    deadLetters: older.deadLetters + newer.deadLetters,
    lastDeadLetter: later(older.lastDeadLetter, newer.lastDeadLetter),
    replies: sum(older.replies, newer.replies),
    lastReplyFailure: later(older.lastReplyFailure, newer.lastReplyFailure),
    lastKickError: later(older.lastKickError, newer.lastKickError),
    check: newer.check ?? older.check,
    duplicatesRemoved: older.duplicatesRemoved + newer.duplicatesRemoved,
    lastRecreated: later(older.lastRecreated, newer.lastRecreated),
    live: newer.live ?? older.live,
  };
}

/** The one update that adds a channel's pending reports to its document. */
function updateOf(pending: Pending, now: Date): Update {
  const inc: Record<string, number> = {};
  const set: Record<string, unknown> = { updatedAt: now };
  if (pending.accepted > 0) inc['deliveries.accepted'] = pending.accepted;
  if (pending.lastDelivery) {
    const { sentAtMs, receivedAtMs } = pending.lastDelivery;
    set['deliveries.lastReceivedAt'] = new Date(receivedAtMs);
    set['deliveries.lastSentAt'] = new Date(sentAtMs);
    set['deliveries.lastLagMs'] = Math.max(0, receivedAtMs - sentAtMs);
  }
  for (const [reason, count] of pending.refused) inc[`refused.${reason}`] = count;
  if (pending.deadLetters > 0) inc['deadLetters.count'] = pending.deadLetters;
  if (pending.lastDeadLetter) {
    set['deadLetters.lastAt'] = pending.lastDeadLetter.at;
    set['deadLetters.lastReason'] = pending.lastDeadLetter.reason;
  }
  for (const [key, count] of pending.replies) inc[`replies.${key}`] = count;
  if (pending.lastReplyFailure) set.lastReplyFailure = pending.lastReplyFailure;
  if (pending.lastKickError) set.lastKickError = pending.lastKickError;
  if (pending.check) {
    set['subscriptions.checkedAt'] = pending.check.checkedAt;
    set['subscriptions.present'] = [...pending.check.present, ...pending.check.recreated];
    set['subscriptions.missing'] = pending.check.missing;
  }
  if (pending.duplicatesRemoved > 0) inc['subscriptions.duplicatesRemoved'] = pending.duplicatesRemoved;
  if (pending.lastRecreated) {
    set['subscriptions.lastRecreatedAt'] = pending.lastRecreated.at;
    set['subscriptions.lastRecreatedEvents'] = pending.lastRecreated.events;
  }
  if (pending.live) set.live = pending.live;
  return Object.keys(inc).length > 0 ? { $set: set, $inc: inc } : { $set: set };
}

export interface StoredDeliveryHealth extends DeliveryHealthReporter {
  /** The reconciler's answer from `GET /channels` (not a report others make, hence not on the port). */
  liveChecked(broadcasterUserId: string, isLive: boolean, checkedAt: Date): void;
  /** Writes what was gathered; a failed write is kept for the next flush. */
  flush(): Promise<void>;
  /**
   * Writes what was gathered for one channel now (its streamer opens the health view: what this
   * instance saw shows at once, not after the next flush). Never throws.
   */
  flushChannel(broadcasterUserId: string): Promise<void>;
  /** Flushes every intervalMs (an unref'ed timer). */
  start(): void;
  /** Stops the timer and flushes what is left. */
  stop(): Promise<void>;
}

export const deliveryHealthCollection = 'delivery-health';

/**
 * How many channels one bulk write of a flush carries: on the embedded store a bulk write of 500
 * held the owner thread up to 27 ms (docs/performance.md, "The owner's long tasks"); 100 a slice,
 * paced by `inSlices`, is a few ms each, and 10 round trips a flush on MongoDB.
 */
const flushChunk = 100;

export function deliveryHealthDocs(store: Store): Collection<DeliveryHealthDoc> {
  return store.collection<DeliveryHealthDoc>(deliveryHealthCollection);
}

/**
 * The stored half of the delivery-health reporter. Reports only touch memory (they sit on the
 * webhook door's and the chat sender's hot path: they never wait and never throw); a timer adds
 * them to one document per channel with `$inc`/`$set` every 30 seconds, so a fault shows in the
 * views within a minute. Each flush writes every channel that had traffic since the last one:
 * with a thousand busy channels, flushing every 5 s cost about one store write per chat line.
 */
export function createStoredDeliveryHealth(deps: {
  store: Store;
  clock: Clock;
  log: Logger;
  /** Default 30000. */
  flushIntervalMs?: number;
}): StoredDeliveryHealth {
  const { clock, log, flushIntervalMs = 30_000 } = deps;
  const docs = deliveryHealthDocs(deps.store);
  let pending = new Map<string, Pending>();

  /** Never throws: a bug here must not cost a delivery or a reply. */
  function note(channel: string | null, change: (entry: Pending) => void): void {
    try {
      const id = channel || unattributedId;
      let entry = pending.get(id);
      if (!entry) {
        entry = emptyPending();
        pending.set(id, entry);
      }
      change(entry);
    } catch (error) {
      log.error({ err: error }, 'could not note a delivery-health report');
    }
  }

  /** Puts a report that could not be stored back under what came since. */
  function keep(id: string, entry: Pending, error: unknown): void {
    log.warn({ err: error, broadcasterUserId: id }, 'could not store delivery health; kept for the next flush');
    const since = pending.get(id);
    pending.set(id, since ? merge(entry, since) : entry);
  }

  async function write(id: string, entry: Pending, now: Date): Promise<void> {
    try {
      await docs.updateOne({ _id: id }, updateOf(entry, now), { upsert: true });
    } catch (error) {
      keep(id, entry, error);
    }
  }

  /**
   * Every channel's update in bulk writes of up to `flushChunk` (one round trip each on MongoDB:
   * with a thousand busy channels the flush was a thousand sequential upserts).
   */
  async function flushOnce(): Promise<void> {
    const batch = [...pending];
    pending = new Map();
    const now = clock.now();
    await inSlices(batch, flushChunk, async (chunk) => {
      try {
        const outcomes = await docs.updateEach(
          chunk.map(([id, entry]) => ({ filter: { _id: id }, update: updateOf(entry, now), upsert: true })),
        );
        chunk.forEach(([id, entry], index) => {
          const error = outcomes[index];
          if (error) keep(id, entry, error);
        });
      } catch (error) {
        for (const [id, entry] of chunk) keep(id, entry, error);
      }
    });
  }

  const periodic = createPeriodicFlush({
    flushOnce,
    everyMs: flushIntervalMs,
    onError: (error) => log.error({ err: error }, 'delivery-health flush failed'),
  });

  return {
    deliveryAccepted: (channel, sentAt, receivedAt) =>
      note(channel, (entry) => {
        entry.accepted += 1;
        const last = (entry.lastDelivery ??= { sentAtMs: sentAt.getTime(), receivedAtMs: receivedAt.getTime() });
        if (receivedAt.getTime() >= last.receivedAtMs) {
          last.sentAtMs = sentAt.getTime();
          last.receivedAtMs = receivedAt.getTime();
        }
      }),
    deliveryRefused: (channel, reason) =>
      note(channel, (entry) => entry.refused.set(reason, (entry.refused.get(reason) ?? 0) + 1)),
    deadLettered: (channel, reason) =>
      note(channel, (entry) => {
        entry.deadLetters += 1;
        entry.lastDeadLetter = { at: clock.now(), reason };
      }),
    reply: (channel, sender, result, error) =>
      note(channel, (entry) => {
        const key = `${sender}.${result}` as const;
        entry.replies.set(key, (entry.replies.get(key) ?? 0) + 1);
        if (result !== 'sent') entry.lastReplyFailure = { at: clock.now(), sender, result, error: error ?? '' };
      }),
    kickError: (channel, message) => note(channel, (entry) => (entry.lastKickError = { at: clock.now(), message })),
    subscriptionsChecked: (channel, check) =>
      note(channel, (entry) => {
        entry.check = check;
        entry.duplicatesRemoved += check.duplicatesRemoved;
        if (check.recreated.length > 0) entry.lastRecreated = { at: check.checkedAt, events: [...check.recreated] };
      }),
    liveChecked: (channel, isLive, checkedAt) => note(channel, (entry) => (entry.live = { isLive, checkedAt })),
    flush: periodic.flush,
    async flushChannel(broadcasterUserId) {
      const entry = pending.get(broadcasterUserId);
      if (!entry) return;
      pending.delete(broadcasterUserId);
      await write(broadcasterUserId, entry, clock.now());
    },
    start: periodic.start,
    stop: periodic.stop,
  };
}
