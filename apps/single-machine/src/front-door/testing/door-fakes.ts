import { createSign, generateKeyPairSync } from 'node:crypto';
import type { IntakeAnswer, RefusalReason, VerifiedDelivery } from '@kickstand/kick-link/front-door';
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

/** kick-link's side of the hand-off, recording what reaches it; `answer` decides what Kick is told. */
export function aRecordingDoor(publicPem: string) {
  const accepted: VerifiedDelivery[] = [];
  const refused: { reason: RefusalReason; signedBody: string | undefined }[] = [];
  const state: { answer: () => Promise<IntakeAnswer> } = { answer: async () => 'kept' };
  const door: WebhookDoorHandOff = {
    intake: {
      refused: (reason, signedBody) => void refused.push({ reason, signedBody: signedBody?.toString('utf8') }),
      accept: (delivery) => {
        accepted.push(delivery);
        return state.answer();
      },
    },
    publicKey: async () => publicPem,
    toleranceSeconds: 300,
    refetchIntervalMs: 60_000,
    fallbackPem: undefined,
  };
  return { door, accepted, refused, state };
}
