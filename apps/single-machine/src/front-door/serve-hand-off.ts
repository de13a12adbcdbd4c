import type { MessagePort } from 'node:worker_threads';
import type { WebhookDoorHandOff } from '@kickstand/kick-link';
import type { Logger } from '@kickstand/platform/log';
import type { FrontMessage, HandedOverDelivery, OwnerMessage } from './messages';

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export interface WebhookHandOff {
  /**
   * For a stop, once the front door has stopped: resolves when its end of the port is closed and
   * every delivery it handed over is finished, or after `timeoutMs`, saying in the log how many
   * were left.
   */
  finish(timeoutMs: number): Promise<void>;
  close(): void;
}

/**
 * How often at most the owner reports finished deliveries. A report is a message, and a message
 * wakes the front door's thread (a cross-thread wake-up, which costs the two threads CPU of the
 * order of the front's RSA check on this machine); at chat rates an event-loop turn of this
 * thread finishes about one delivery, so a report per turn was a wake-up per delivery. The reports
 * only feed the front's FRONT_DOOR_MAX_UNFINISHED bound (thousands of deliveries, seconds of
 * backlog): seeing them up to this late makes the front count at most rate × 20 ms deliveries too
 * many, a few dozen at 2,000/s.
 */
export const finishedReportIntervalMs = 20;

/**
 * The owner thread's side of the hand-off: each delivery the front door checked (and already
 * answered 200; those of one of its event-loop turns come in one message, in order) goes to
 * kick-link's intake (claim, parse, publish, dead letter, delivery health); one it cannot keep
 * becomes a dead letter there (acceptAcknowledged). The deliveries finished are reported back as
 * a count, at most every `finishedReportIntervalMs` (the first one finished starts the wait), so
 * the front door knows how far behind this thread is (owner-link.ts); `close` reports those not
 * reported yet first.
 */
export function serveWebhookHandOff(port: MessagePort, door: WebhookDoorHandOff, log: Logger): WebhookHandOff {
  const reply = (message: OwnerMessage) => port.postMessage(message);
  let unfinished = 0;
  let unreported = 0;
  let reportTimer: NodeJS.Timeout | undefined;
  let isClosed = false;
  const whenAllFinished: Array<() => void> = [];

  function report(): void {
    reportTimer = undefined;
    if (unreported === 0 || isClosed) return;
    reply({ kind: 'finished', count: unreported });
    unreported = 0;
  }

  function finished(): void {
    unfinished -= 1;
    unreported += 1;
    // unref: a report due is no reason for the thread to stay up
    reportTimer ??= setTimeout(report, finishedReportIntervalMs).unref();
    if (unfinished === 0) whenAllFinished.splice(0).forEach((resolve) => resolve());
  }

  function accept(delivery: HandedOverDelivery): void {
    unfinished += 1;
    door.intake
      .acceptAcknowledged({
        headers: delivery.headers,
        rawBody: asBuffer(delivery.rawBody),
        sentAt: new Date(delivery.sentAtMs),
        receivedAt: new Date(delivery.receivedAtMs),
      })
      // it does not reject (a delivery it cannot keep is a dead letter): this is a last guard
      .catch((err: unknown) => log.error({ err, messageId: delivery.headers.messageId }, 'webhook delivery failed'))
      .finally(finished);
  }

  port.on('message', (message: FrontMessage) => {
    switch (message.kind) {
      case 'deliveries':
        for (const delivery of message.deliveries) accept(delivery);
        return;
      case 'refused':
        door.intake.refused(message.reason, message.signedBody ? asBuffer(message.signedBody) : undefined);
        return;
      case 'public-key':
        door.publicKey().then(
          (pem) => reply({ kind: 'public-key', id: message.id, pem }),
          (err: unknown) =>
            reply({ kind: 'public-key', id: message.id, error: err instanceof Error ? err.message : String(err) }),
        );
        return;
    }
  });

  // once the front door has closed its end, every delivery it posted has been received here
  const frontClosed = new Promise<void>((resolve) => port.once('close', resolve));
  const allFinished = () =>
    unfinished === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenAllFinished.push(resolve));

  return {
    async finish(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const isAllFinished = await Promise.race([
        frontClosed.then(allFinished).then(() => true as const),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      if (!isAllFinished) {
        log.error(
          { unfinished, timeoutMs },
          'stopping without waiting longer for webhook deliveries already answered 200: those left may be lost',
        );
      }
    },
    close() {
      // the front door learns of every delivery finished before the port goes (or they count as lost there)
      clearTimeout(reportTimer);
      report();
      isClosed = true;
      port.close();
    },
  };
}
