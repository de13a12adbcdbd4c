import { randomUUID } from 'node:crypto';
import type { Timer, TimerBody } from '@kickstand/api-contract';
import type { Document, Store } from '@kickstand/platform/store';
import type { ScheduledTimer } from './timer-schedule';

/** One document per timer. */
export interface TimerDoc extends Document {
  userId: string;
  message: string;
  intervalMinutes: number;
  minChatLines: number;
  enabled: boolean;
  /** The rotation's order. */
  createdAtMs: number;
  lastPostedAtMs: number | null;
}

export interface TimersRepository {
  list(userId: string): Promise<TimerDoc[]>;
  enabled(userId: string): Promise<TimerDoc[]>;
  count(userId: string): Promise<number>;
  countEnabled(userId: string): Promise<number>;
  add(userId: string, body: TimerBody, atMs: number): Promise<TimerDoc>;
  /** Null when the user has no such timer. */
  update(userId: string, id: string, change: Partial<TimerBody>): Promise<TimerDoc | null>;
  remove(userId: string, id: string): Promise<boolean>;
  markPosted(id: string, atMs: number): Promise<void>;
}

export function createTimersRepository(store: Store): TimersRepository {
  const timers = store.collection<TimerDoc>('timers');
  const inOrder = { sort: { createdAtMs: 1, _id: 1 } } as const;
  return {
    list: (userId) => timers.find({ userId }, inOrder),
    enabled: (userId) => timers.find({ userId, enabled: true }, inOrder),
    count: (userId) => timers.count({ userId }),
    countEnabled: (userId) => timers.count({ userId, enabled: true }),
    add: (userId, body, atMs) =>
      timers.insertOne({
        _id: randomUUID(),
        userId,
        message: body.message,
        intervalMinutes: body.intervalMinutes,
        minChatLines: body.minChatLines,
        enabled: body.enabled ?? true,
        createdAtMs: atMs,
        lastPostedAtMs: null,
      }),
    update: (userId, id, change) =>
      timers.findOneAndUpdate(
        { _id: id, userId },
        // an absent field keeps its value
        { $set: Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) },
        { returnDocument: 'after' },
      ),
    remove: async (userId, id) => (await timers.deleteOne({ _id: id, userId })) > 0,
    markPosted: async (id, atMs) => {
      await timers.updateOne({ _id: id }, { $set: { lastPostedAtMs: atMs } });
    },
  };
}

export const scheduledTimerOf = (doc: TimerDoc): ScheduledTimer => ({
  id: doc._id,
  createdAtMs: doc.createdAtMs,
  message: doc.message,
  intervalMinutes: doc.intervalMinutes,
  minChatLines: doc.minChatLines,
});

export const timerView = (doc: TimerDoc): Timer => ({
  id: doc._id,
  message: doc.message,
  intervalMinutes: doc.intervalMinutes,
  minChatLines: doc.minChatLines,
  enabled: doc.enabled,
  createdAt: new Date(doc.createdAtMs).toISOString(),
  lastPostedAt: doc.lastPostedAtMs === null ? null : new Date(doc.lastPostedAtMs).toISOString(),
});
