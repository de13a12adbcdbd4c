import type { MessagePort } from 'node:worker_threads';
import type { WebhookDoorHandOff } from '@kickstand/kick-link';
import type { Logger } from '@kickstand/platform/log';
import type { FrontMessage, OwnerMessage } from './messages';

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The owner thread's side of the hand-off: each delivery the front door checked goes to
 * kick-link's intake (claim, parse, publish, dead letter, delivery health), and its answer back.
 */
export function serveWebhookHandOff(port: MessagePort, door: WebhookDoorHandOff, log: Logger): { close(): void } {
  const answer = (message: OwnerMessage) => port.postMessage(message);
  port.on('message', (message: FrontMessage) => {
    switch (message.kind) {
      case 'delivery':
        door.intake
          .accept({
            headers: message.headers,
            rawBody: asBuffer(message.rawBody),
            sentAt: new Date(message.sentAtMs),
            receivedAt: new Date(message.receivedAtMs),
          })
          .then(
            (outcome) => answer({ kind: 'answer', id: message.id, answer: outcome }),
            (err: unknown) => {
              log.error({ err, messageId: message.headers.messageId }, 'webhook delivery failed');
              answer({ kind: 'answer', id: message.id, answer: 'failed' });
            },
          );
        return;
      case 'refused':
        door.intake.refused(message.reason, message.signedBody ? asBuffer(message.signedBody) : undefined);
        return;
      case 'public-key':
        door.publicKey().then(
          (pem) => answer({ kind: 'public-key', id: message.id, pem }),
          (err: unknown) =>
            answer({ kind: 'public-key', id: message.id, error: err instanceof Error ? err.message : String(err) }),
        );
        return;
    }
  });
  return { close: () => port.close() };
}
