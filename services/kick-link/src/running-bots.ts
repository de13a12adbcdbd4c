import type { Collection, Document, Store } from '@kickstand/platform/store';
import { DuplicateKeyError } from '@kickstand/platform/store';

/**
 * kick-link's read model of which bots run, from bot.control START/STOP (`_id` = the Kickstand
 * user id). It is also the reconciler's lease: an instance claims a channel by moving
 * `nextReconcileAt` forward in one findOneAndUpdate, so no other instance takes it until then.
 */
export interface RunningBotDoc extends Document {
  isRunning: boolean;
  /** When the bot was started (the START that turned it on). */
  runningSince: Date | null;
  /** occurred_at of the instruction applied: an older replay does not overwrite a newer one. */
  occurredAt: Date;
  /** The channel, as last resolved from the user's link; "" before that. */
  broadcasterUserId: string;
  /** When the channel is due for its next reconcile (null: now). */
  nextReconcileAt: Date | null;
  /** The instance that claimed the last reconcile (for the logs and the tests). */
  reconcileOwner: string | null;
}

export interface RunningBots {
  createIndexes(): Promise<void>;
  /** Applies START (running) or STOP, unless a newer instruction was applied already. */
  record(
    userId: string,
    change: { isRunning: boolean; occurredAt: Date; broadcasterUserId: string; reconcileAt: Date | null },
  ): Promise<void>;
  get(userId: string): Promise<RunningBotDoc | null>;
  /** Running bots by channel. */
  byChannels(broadcasterUserIds: readonly string[]): Promise<RunningBotDoc[]>;
  all(): Promise<RunningBotDoc[]>;
  /** Running bots due for a reconcile at `now`. */
  due(now: Date, limit: number): Promise<RunningBotDoc[]>;
  /**
   * Claims a due channel for `owner` until `until` (its next reconcile): null when it is not
   * running, not due, or another instance claimed it first.
   */
  claim(userId: string, owner: string, now: Date, until: Date): Promise<RunningBotDoc | null>;
  setChannel(userId: string, broadcasterUserId: string): Promise<void>;
}

const dueFilter = (now: Date) => ({
  isRunning: true,
  $or: [{ nextReconcileAt: null }, { nextReconcileAt: { $lte: now } }],
});

export function createRunningBots(store: Store): RunningBots {
  const bots: Collection<RunningBotDoc> = store.collection<RunningBotDoc>('running-bots');
  return {
    async createIndexes() {
      await bots.createIndex({ fields: { broadcasterUserId: 1 } });
    },

    async record(userId, change) {
      const existing = await bots.findOne({ _id: userId });
      const runningSince = change.isRunning ? (existing?.isRunning ? existing.runningSince : change.occurredAt) : null;
      try {
        await bots.updateOne(
          { _id: userId, occurredAt: { $lte: change.occurredAt } },
          {
            $set: {
              isRunning: change.isRunning,
              runningSince,
              occurredAt: change.occurredAt,
              ...(change.broadcasterUserId ? { broadcasterUserId: change.broadcasterUserId } : {}),
              nextReconcileAt: change.reconcileAt,
            },
            $setOnInsert: { reconcileOwner: null, ...(change.broadcasterUserId ? {} : { broadcasterUserId: '' }) },
          },
          { upsert: true },
        );
      } catch (error) {
        // the document holds a newer instruction: this one is older and dropped
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    },

    get: (userId) => bots.findOne({ _id: userId }),
    byChannels: (ids) => bots.find({ broadcasterUserId: { $in: [...ids] }, isRunning: true }),
    all: () => bots.find({}),
    due: (now, limit) => bots.find(dueFilter(now), { limit }),
    claim: (userId, owner, now, until) =>
      bots.findOneAndUpdate(
        { _id: userId, ...dueFilter(now) },
        { $set: { nextReconcileAt: until, reconcileOwner: owner } },
        { returnDocument: 'after' },
      ),
    async setChannel(userId, broadcasterUserId) {
      await bots.updateOne({ _id: userId }, { $set: { broadcasterUserId } });
    },
  };
}
