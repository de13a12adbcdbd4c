import { createSign, generateKeyPairSync } from 'node:crypto';
import type { RefusalReason, VerifiedDelivery } from '@kickstand/kick-link/front-door';
import type { WebhookDoorHandOff } from '@kickstand/kick-link';

/** A key pair standing in for Kick's webhook key, and deliveries signed with it (kick-api.md §8.6). */
export function aKickKey() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return {
    publicPem,
    signed(messageId: string, timestamp: Date, body: string): Record<string, string> {
      const stamp = timestamp.toISOString();
      const signer = createSign('RSA-SHA256');
      signer.update(`${messageId}.${stamp}.${body}`);
      return {
        'content-type': 'application/json',
        'kick-event-message-id': messageId,
        'kick-event-subscription-id': 'sub-1',
        'kick-event-signature': signer.sign(privateKey, 'base64'),
        'kick-event-message-timestamp': stamp,
        'kick-event-type': 'chat.message.sent',
        'kick-event-version': '1',
      };
    },
  };
}

/**
 * kick-link's side of the hand-off, recording what reaches it: `accepted` as it arrives, `finished`
 * once `state.finish` (what kick-link does with it) settles; a test holds or fails it there.
 */
export function aRecordingDoor(publicPem: string) {
  const accepted: VerifiedDelivery[] = [];
  const finished: string[] = [];
  const refused: { reason: RefusalReason; signedBody: string | undefined }[] = [];
  const state: { finish: (delivery: VerifiedDelivery) => Promise<void> } = { finish: async () => undefined };
  const door: WebhookDoorHandOff = {
    intake: {
      refused: (reason, signedBody) => void refused.push({ reason, signedBody: signedBody?.toString('utf8') }),
      accept: () => Promise.reject(new Error('the front door hands deliveries over as acknowledged')),
      acceptAcknowledged: async (delivery) => {
        accepted.push(delivery);
        await state.finish(delivery);
        finished.push(delivery.headers.messageId);
      },
    },
    publicKey: async () => publicPem,
    toleranceSeconds: 300,
    refetchIntervalMs: 60_000,
    fallbackPem: undefined,
  };
  return { door, accepted, finished, refused, state };
}

/** A promise the test settles: to hold the owner's work on a delivery until it says so. */
export function aHold() {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}
