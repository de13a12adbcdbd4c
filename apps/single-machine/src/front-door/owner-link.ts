import type { MessagePort } from 'node:worker_threads';
import type { IntakeAnswer, WebhookIntake } from '@kickstand/kick-link/front-door';
import type { FrontMessage, OwnerMessage } from './messages';

export interface OwnerLink {
  /** kick-link's intake, reached by message: an unanswered delivery becomes `unavailable` (503). */
  intake: WebhookIntake;
  /** Kick's public key as kick-link's Kick client fetches it. */
  publicKey(): Promise<string>;
  close(): void;
}

type Pending =
  | { kind: 'answer'; settle: (answer: IntakeAnswer | 'failed') => void; timer: NodeJS.Timeout }
  | { kind: 'public-key'; resolve: (pem: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/**
 * The front door's side of the hand-off. Each request carries an id; the owner's answer settles
 * it. When the owner does not answer in time (its thread stuck or stopping) or its port closed,
 * a delivery is answered `unavailable`, so Kick gets 503 + Retry-After rather than a hung request;
 * the delivery may still be published later, and a retry of it is then dropped by its claim.
 */
export function createOwnerLink(port: MessagePort, options: { handOffTimeoutMs: number }): OwnerLink {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let isClosed = false;

  function settleAllUnavailable(): void {
    for (const [id, waiting] of pending) {
      pending.delete(id);
      clearTimeout(waiting.timer);
      if (waiting.kind === 'answer') waiting.settle('unavailable');
      else waiting.reject(new Error('the owner thread is gone'));
    }
  }

  port.on('message', (message: OwnerMessage) => {
    const waiting = pending.get(message.id);
    if (!waiting) return; // answered too late: already 503
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (waiting.kind === 'answer' && message.kind === 'answer') waiting.settle(message.answer);
    else if (waiting.kind === 'public-key' && message.kind === 'public-key') {
      if ('pem' in message) waiting.resolve(message.pem);
      else waiting.reject(new Error(message.error));
    }
  });
  port.on('close', () => {
    isClosed = true;
    settleAllUnavailable();
  });

  const send = (message: FrontMessage) => port.postMessage(message);

  return {
    intake: {
      refused(reason, signedBody) {
        if (isClosed) return;
        send({ kind: 'refused', reason, ...(signedBody ? { signedBody } : {}) });
      },
      async accept(delivery) {
        if (isClosed) return 'unavailable';
        const id = nextId++;
        const answer = await new Promise<IntakeAnswer | 'failed'>((settle) => {
          const timer = setTimeout(() => {
            pending.delete(id);
            settle('unavailable');
          }, options.handOffTimeoutMs);
          pending.set(id, { kind: 'answer', settle, timer });
          // the body is copied (structured clone), not transferred: a small Buffer shares Node's pool
          send({
            kind: 'delivery',
            id,
            headers: delivery.headers,
            rawBody: delivery.rawBody,
            sentAtMs: delivery.sentAt.getTime(),
            receivedAtMs: delivery.receivedAt.getTime(),
          });
        });
        if (answer === 'failed') throw new Error('the webhook intake failed in the owner thread');
        return answer;
      },
    },
    publicKey() {
      if (isClosed) return Promise.reject(new Error('the owner thread is gone'));
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error("the owner thread did not answer with Kick's public key"));
        }, options.handOffTimeoutMs);
        pending.set(id, { kind: 'public-key', resolve, reject, timer });
        send({ kind: 'public-key', id });
      });
    },
    close() {
      isClosed = true;
      settleAllUnavailable();
      port.close();
    },
  };
}
