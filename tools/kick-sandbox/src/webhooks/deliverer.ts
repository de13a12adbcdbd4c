import { EventEmitter } from 'node:events';
import { Agent } from 'undici';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { App } from '../app-settings';
import type { Notifier } from '../notifier';
import type { ResolvedOptions } from '../options';
import type { DeliveryAttempt, DeliveryDoc, Repository } from '../repository';
import { rfc3339Seconds } from '../time';
import type { Faults } from './faults';
import type { Signer } from './signer';

/**
 * Sends deliveries to the app's webhook URL in the background, one channel's deliveries one after
 * another (so they arrive in order unless the out-of-order fault says otherwise), different
 * channels in parallel. Each attempt is recorded with the status the webhook answered.
 */
export interface Deliverer {
  enqueue(delivery: DeliveryDoc): void;
  /** Stops sending (in-flight requests are aborted) and waits for the queues to settle. */
  stop(): Promise<void>;
}

/** What fetch sent besides Kick's headers (its browser-only ones, and compression, left out). */
const clientHeaders = { accept: '*/*', 'user-agent': 'node' } as const;

interface ChannelQueue {
  items: DeliveryDoc[];
  held: DeliveryDoc | null;
  holdTimer: NodeJS.Timeout | undefined;
  draining: Promise<void> | undefined;
}

interface Deps {
  repo: Repository;
  app: App;
  signer: Signer;
  faults: Faults;
  clock: Clock;
  log: Logger;
  notifier: Notifier;
  delivery: ResolvedOptions['delivery'];
}

export function createDeliverer(deps: Deps): Deliverer {
  const { repo, app, signer, faults, clock, log, notifier, delivery } = deps;
  const queues = new Map<number, ChannelQueue>();
  const stopping = new AbortController();
  // keep-alive connections to the app's webhook URL (fetch's global dispatcher did the same, at ~3 times
  // the CPU); no more than requests are let out at once
  const agent = new Agent({ connections: delivery.maxInFlight });
  const slots = createSlots(delivery.maxInFlight);
  /** The deadlines of the requests under way: stop() aborts them. */
  const inFlight = new Set<EventEmitter>();

  function queueOf(broadcasterUserId: number): ChannelQueue {
    const existing = queues.get(broadcasterUserId);
    if (existing) return existing;
    const created: ChannelQueue = { items: [], held: null, holdTimer: undefined, draining: undefined };
    queues.set(broadcasterUserId, created);
    return created;
  }

  function kick(queue: ChannelQueue): void {
    if (queue.draining || stopping.signal.aborted) return;
    queue.draining = drain(queue)
      .catch((err: unknown) => log.error({ err }, 'webhook delivery queue failed'))
      .finally(() => {
        queue.draining = undefined;
        if (queue.items.length > 0) kick(queue);
      });
  }

  async function drain(queue: ChannelQueue): Promise<void> {
    // signing and sending start on the next turn of the event loop: the request that caused the
    // delivery (a bot line's POST /chat) is answered first, not after handing the signature over
    // and writing a request
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let item = queue.items.shift(); item; item = queue.items.shift()) {
      if (stopping.signal.aborted) return;
      if (item.faults.includes('outOfOrder') && !queue.held) {
        holdBack(queue, item);
        continue;
      }
      await send(item);
      const overtaken = queue.held;
      if (overtaken) {
        queue.held = null;
        clearTimeout(queue.holdTimer);
        await send(overtaken);
      }
    }
  }

  /** Nothing came along to overtake it in time: send it anyway rather than lose it. */
  function holdBack(queue: ChannelQueue, item: DeliveryDoc): void {
    queue.held = item;
    queue.holdTimer = setTimeout(() => {
      if (queue.held !== item) return;
      queue.held = null;
      queue.items.unshift({ ...item, faults: item.faults.filter((name) => name !== 'outOfOrder') });
      kick(queue);
    }, delivery.outOfOrderHoldMs);
  }

  async function post(item: DeliveryDoc, headers: Record<string, string>): Promise<Omit<DeliveryAttempt, 'kind'>> {
    const at = clock.now();
    const started = performance.now();
    const timestamp = headers['Kick-Event-Message-Timestamp'] ?? '';
    // one deadline for the whole attempt (connect, answer, body), as fetch's AbortSignal.timeout was;
    // undici takes an EventEmitter as the abort signal, far cheaper than AbortSignal.any + timeout
    const deadline = new EventEmitter();
    let isTimedOut = false;
    const timer = setTimeout(() => {
      isTimedOut = true;
      deadline.emit('abort');
    }, delivery.timeoutMs);
    inFlight.add(deadline);
    try {
      const target = new URL(app.settings().webhookUrl);
      // redirects are not followed (undici's request never does), as fetch's `redirect: 'manual'`
      const response = await agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { ...clientHeaders, ...headers },
        body: item.body,
        signal: deadline,
      });
      // read the answer so the connection can be reused
      await response.body.dump().catch(() => undefined);
      return {
        at,
        timestamp,
        status: response.statusCode,
        error: null,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      const message = isTimedOut
        ? 'TimeoutError: The operation was aborted due to timeout'
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error);
      return { at, timestamp, status: null, error: message, durationMs: Math.round(performance.now() - started) };
    } finally {
      clearTimeout(timer);
      inFlight.delete(deadline);
    }
  }

  async function headersFor(item: DeliveryDoc): Promise<Record<string, string>> {
    const sentAt = item.faults.includes('staleTimestamp')
      ? new Date(clock.now().getTime() - delivery.staleTimestampSeconds * 1000)
      : clock.now();
    const timestamp = rfc3339Seconds(sentAt);
    const signature = await (item.faults.includes('badSignature')
      ? signer.signWrongly(item.messageId, timestamp, item.body)
      : signer.sign(item.messageId, timestamp, item.body));
    return {
      'Content-Type': 'application/json',
      'Kick-Event-Message-Id': item.messageId,
      'Kick-Event-Subscription-Id': item.subscriptionId,
      'Kick-Event-Signature': signature,
      'Kick-Event-Message-Timestamp': timestamp,
      'Kick-Event-Type': item.eventType,
      'Kick-Event-Version': String(item.eventVersion),
    };
  }

  function record(item: DeliveryDoc, attempt: DeliveryAttempt, state?: DeliveryDoc['state']): void {
    repo.deliveries.update(item._id, (kept) => ({
      ...kept,
      attempts: [...kept.attempts, attempt],
      state: state ?? kept.state,
    }));
    notifier.notify('deliveries');
  }

  /** Runs a request in a free slot; undefined when the deliverer stopped meanwhile. */
  async function inSlot<T>(task: () => Promise<T>): Promise<T | undefined> {
    const release = await slots.take();
    try {
      return stopping.signal.aborted ? undefined : await task();
    } finally {
      release();
    }
  }

  async function send(item: DeliveryDoc): Promise<void> {
    const maxAttempts = faults.get().maxAttempts;
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      if (stopping.signal.aborted) return;
      // a free slot first, then the signature: a burst of deliveries (a turn's bot lines, every
      // channel at once) is signed as requests go out, with no more signatures waiting (the signer
      // makes them one at a time) than slots, and does not open a connection per channel
      const sent = await inSlot(async () => {
        const headers = await headersFor(item);
        // stop() came while the signature was made: it already aborted what was in flight
        if (stopping.signal.aborted) return undefined;
        return { headers, result: await post(item, headers) };
      });
      if (!sent) return;
      const { headers, result } = sent;
      const isSuccess = result.status !== null && result.status >= 200 && result.status < 300;
      const isLast = isSuccess || attempt === maxAttempts;
      const state = isSuccess ? 'delivered' : isLast ? 'failed' : undefined;
      record(item, { kind: attempt === 1 ? 'first' : 'retry', ...result }, state);
      if (attempt === 1 && item.faults.includes('duplicate')) {
        // Kick's duplicates carry the same message id: the exact same request again
        const again = await inSlot(() => post(item, headers));
        if (again) record(item, { kind: 'duplicate', ...again });
      }
      if (isSuccess) {
        // a write only when there is a count to reset: nearly every delivery succeeds after a success
        await repo.subscriptions.updateOne(
          { _id: item.subscriptionId, consecutiveFailures: { $ne: 0 } },
          { $set: { consecutiveFailures: 0 } },
        );
        return;
      }
      if (!isLast) await pause(delivery.retryDelayMs);
    }
    if (!stopping.signal.aborted) await countFailure(item);
  }

  async function countFailure(item: DeliveryDoc): Promise<void> {
    const subscription = await repo.subscriptions.findOneAndUpdate(
      { _id: item.subscriptionId },
      { $inc: { consecutiveFailures: 1 } },
    );
    const threshold = faults.get().autoUnsubscribeAfterFailures;
    if (!subscription || threshold === null || subscription.consecutiveFailures < threshold) return;
    // Kick drops a subscription whose endpoint keeps failing; the product must notice and resubscribe
    await repo.subscriptions.deleteOne({ _id: subscription._id });
    log.info(
      { subscriptionId: subscription._id, event: subscription.event, failures: subscription.consecutiveFailures },
      'subscription removed after persistent webhook failures',
    );
  }

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        stopping.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      stopping.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    enqueue(item) {
      if (stopping.signal.aborted) return;
      const queue = queueOf(item.broadcasterUserId);
      queue.items.push(item);
      kick(queue);
    },
    async stop() {
      stopping.abort();
      for (const deadline of inFlight) deadline.emit('abort');
      for (const queue of queues.values()) clearTimeout(queue.holdTimer);
      await Promise.all([...queues.values()].map((queue) => queue.draining));
      await agent.close();
    },
  };
}

/** At most `size` holders at once; the others wait, first come first served. */
function createSlots(size: number): { take(): Promise<() => void> } {
  let free = size;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return {
    take() {
      if (free > 0) {
        free -= 1;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => waiting.push(() => resolve(release)));
    },
  };
}
