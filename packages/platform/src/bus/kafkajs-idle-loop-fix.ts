/**
 * kafkajs 2.2.4 keeps a 1 ms timer loop running on every broker connection that has had an answer
 * (tulios/kafkajs#1556, #1704; the fix, #1667, was never released): `RequestQueue`'s
 * `scheduleCheckPendingRequests` schedules the next check of its pending requests even when none
 * is pending and nothing is throttled, with a negative delay (which Node runs after 1 ms), and each
 * check schedules the next. Every Kickstand process on Kafka spent ~25 ms of CPU a second on it,
 * idle or busy: most of distributed mode's idle cost (docs/performance.md).
 *
 * This puts kafkajs's own method back without the loop: with nothing pending and no throttle there
 * is nothing to check (a new request is then sent at once, and one that has to wait schedules its
 * own check). Only the kafkajs version it was written against is changed; another one is left as
 * it is.
 */

/** The part of kafkajs's RequestQueue (src/network/requestQueue) the method uses. */
interface RequestQueueState {
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  pending: unknown[];
  checkPendingRequests(): void;
}

interface RequestQueueClass {
  prototype: { scheduleCheckPendingRequests(this: RequestQueueState): void };
}

export const fixedKafkajsVersion = '2.2.4';
/** kafkajs's CHECK_PENDING_REQUESTS_INTERVAL. */
const checkPendingIntervalMs = 10;

/** kafkajs's method, except that it schedules nothing when nothing is pending or throttled. */
export function scheduleCheckPendingRequests(this: RequestQueueState): void {
  let scheduleAt = this.throttledUntil - Date.now();
  if (this.throttleCheckTimeoutId) return;
  if (this.pending.length > 0) {
    scheduleAt = scheduleAt > 0 ? scheduleAt : checkPendingIntervalMs;
  } else if (scheduleAt <= 0) {
    return;
  }
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, scheduleAt);
}

let isApplied = false;

/** Idempotent; true when kafkajs is the version this was written against (and is now fixed). */
export function fixKafkajsIdleLoop(): boolean {
  if (isApplied) return true;
  // kafkajs has no exports map: its internals are reachable, but untyped
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== fixedKafkajsVersion) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as RequestQueueClass;
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  isApplied = true;
  return true;
}
