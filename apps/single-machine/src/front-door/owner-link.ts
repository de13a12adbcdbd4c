import type { MessagePort } from 'node:worker_threads';
import type { WebhookIntake } from '@kickstand/kick-link/front-door';
import type { Logger } from '@kickstand/platform/log';
import type { FrontMessage, HandedOverDelivery, OwnerMessage } from './messages';

export interface OwnerLink {
  /**
   * kick-link's intake, reached by message: a delivery is `kept` (200) once it is handed over, or
   * `unavailable` (503 + Retry-After) while `maxUnfinished` handed-over deliveries are not finished
   * yet or the owner's port is closed.
   */
  intake: WebhookIntake;
  /** Kick's public key as kick-link's Kick client fetches it. */
  publicKey(): Promise<string>;
  close(): void;
}

interface PendingKey {
  resolve: (pem: string) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The front door's side of the hand-off.
 *
 * A verified delivery is answered 200 as soon as it is posted to the owner thread, not after the
 * owner's claim and publish: the in-process bus behind them keeps nothing across a crash either, so
 * a 200 already meant "queued in this process" (docs/decisions/single-machine-two-cores.md). The
 * owner reports the deliveries it finished (a count at most every 20 ms: serve-hand-off.ts); those handed over and not
 * finished are the queue between the threads. At `maxUnfinished` of them (the owner has fallen
 * behind) or once the owner's port is closed, a delivery is answered 503 + Retry-After, so the
 * queue and its memory stay bounded. There is no age bound: a delivery waiting in the queue is
 * processed when the owner gets to it, while a 503 may lose it (Kick is not known to retry).
 *
 * The deliveries handed over in one event-loop turn go to the owner as one message, posted at the
 * end of the turn (setImmediate): a message is the hand-off's cost in both threads (the post wakes
 * the owner's event loop, the owner runs a message event), whatever it carries. "Handed over" is
 * queued for that post; a message of another kind posts the queue first, and so does `close`, so
 * the owner gets everything in the order it was sent, and everything answered 200.
 *
 * Kick's public key is asked for by id; a request the owner does not answer in time fails.
 */
export function createOwnerLink(
  port: MessagePort,
  options: { handOffTimeoutMs: number; maxUnfinished: number; log: Logger },
): OwnerLink {
  const { log } = options;
  const pendingKeys = new Map<number, PendingKey>();
  let nextId = 1;
  let unfinished = 0;
  let refusedWhileBehind = 0;
  let isClosed = false;

  function rejectPendingKeys(): void {
    for (const [id, waiting] of pendingKeys) {
      pendingKeys.delete(id);
      clearTimeout(waiting.timer);
      waiting.reject(new Error('the owner thread is gone'));
    }
  }

  port.on('message', (message: OwnerMessage) => {
    if (message.kind === 'finished') {
      unfinished = Math.max(0, unfinished - message.count);
      return;
    }
    const waiting = pendingKeys.get(message.id);
    if (!waiting) return; // answered too late: already failed
    pendingKeys.delete(message.id);
    clearTimeout(waiting.timer);
    if ('pem' in message) waiting.resolve(message.pem);
    else waiting.reject(new Error(message.error));
  });

  /** The deliveries of this turn, posted together at its end. */
  let queued: HandedOverDelivery[] = [];

  port.on('close', () => {
    if (!isClosed && unfinished > 0) {
      // the owner's end went away by itself (its thread ending): deliveries Kick has had its 200 for
      // can no longer be published, and Kick will not send them again, so say how many
      log.error(
        { deliveries: unfinished },
        'the owner thread is gone: webhook deliveries already answered 200 may not have been published',
      );
    }
    queued = [];
    isClosed = true;
    rejectPendingKeys();
  });

  function postQueued(): void {
    if (queued.length === 0) return;
    const deliveries = queued;
    queued = [];
    // the bodies are copied (structured clone), not transferred: a small Buffer shares Node's pool
    port.postMessage({ kind: 'deliveries', deliveries } satisfies FrontMessage);
  }

  function handOver(delivery: HandedOverDelivery): void {
    if (queued.length === 0) setImmediate(postQueued);
    queued.push(delivery);
  }

  const send = (message: FrontMessage) => {
    postQueued();
    port.postMessage(message);
  };

  /**
   * Whether one more delivery may be handed over. The log says when the owner falls behind and,
   * with how many deliveries were refused, when it is well clear of the bound again (half of it),
   * so that hovering at the bound writes no line per delivery.
   */
  function hasRoom(): boolean {
    if (unfinished < options.maxUnfinished) {
      if (refusedWhileBehind > 0 && unfinished <= options.maxUnfinished / 2) {
        log.info(
          { unfinished, refused: refusedWhileBehind },
          'the owner thread caught up: webhook deliveries are answered 200 again',
        );
        refusedWhileBehind = 0;
      }
      return true;
    }
    if (refusedWhileBehind === 0) {
      log.warn(
        { unfinished, maxUnfinished: options.maxUnfinished },
        'the owner thread is behind (FRONT_DOOR_MAX_UNFINISHED): webhook deliveries are answered 503 until it catches up',
      );
    }
    refusedWhileBehind += 1;
    return false;
  }

  return {
    intake: {
      refused(reason, signedBody) {
        if (isClosed) return;
        send({ kind: 'refused', reason, ...(signedBody ? { signedBody } : {}) });
      },
      async accept(delivery) {
        if (isClosed || !hasRoom()) return 'unavailable';
        unfinished += 1;
        handOver({
          headers: delivery.headers,
          rawBody: delivery.rawBody,
          sentAtMs: delivery.sentAt.getTime(),
          receivedAtMs: delivery.receivedAt.getTime(),
        });
        return 'kept';
      },
    },
    publicKey() {
      if (isClosed) return Promise.reject(new Error('the owner thread is gone'));
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          pendingKeys.delete(id);
          reject(new Error("the owner thread did not answer with Kick's public key"));
        }, options.handOffTimeoutMs);
        pendingKeys.set(id, { resolve, reject, timer });
        send({ kind: 'public-key', id });
      });
    },
    close() {
      // a delivery answered 200 in this turn is posted before the port closes: the owner waits for it
      postQueued();
      isClosed = true;
      rejectPendingKeys();
      port.close();
    },
  };
}
