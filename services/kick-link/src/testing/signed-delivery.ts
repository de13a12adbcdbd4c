import { createSign, generateKeyPairSync } from 'node:crypto';

/**
 * For tests: deliveries signed the way Kick signs them (kick-api.md §8.6), with a key pair that
 * stands in for Kick's, so any body (drifted, broken, unknown) can be sent byte for byte.
 */

export function generateKickKeyPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

/** Kick's timestamp header: RFC 3339 in UTC, to the second. */
export const kickTimestamp = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** POSTs `raw` to the webhook URL with the six Kick-Event-* headers, signed with `privateKey`. */
export function postSignedDelivery(
  url: string,
  privateKey: string,
  delivery: { type: string; raw: string; messageId: string; timestamp: string; version?: string },
): Promise<Response> {
  const { type, raw, messageId, timestamp } = delivery;
  const signature = createSign('RSA-SHA256').update(`${messageId}.${timestamp}.${raw}`).sign(privateKey, 'base64');
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'kick-event-message-id': messageId,
      'kick-event-subscription-id': '01JK7Z8Q4W2M6B3T5N9R1C0SUB',
      'kick-event-signature': signature,
      'kick-event-message-timestamp': timestamp,
      'kick-event-type': type,
      'kick-event-version': delivery.version ?? '1',
    },
    body: raw,
  });
}
