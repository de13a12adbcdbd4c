import { createSign, randomBytes, type KeyObject } from 'node:crypto';

/**
 * A chat.message.sent delivery exactly as Kick sends it (kick-api.md §8.6, §8.9): the bare payload
 * as the body, six Kick-Event-* headers, and an RSA-SHA256 (PKCS#1 v1.5) signature over
 * `<message id>.<timestamp>.<raw body>`, base64.
 */

export interface KickUserRef {
  userId: number;
  username: string;
}

export interface ChatMessageInput {
  /** The chat message id (a UUID): what the bot's reply points at. */
  chatMessageId: string;
  broadcaster: KickUserRef;
  sender: KickUserRef;
  content: string;
  /** RFC 3339, second precision. */
  createdAt: string;
}

export interface Delivery {
  /** Kick-Event-Message-Id (a ULID): the idempotency key of the delivery. */
  messageId: string;
  subscriptionId: string;
  /** Kick-Event-Message-Timestamp, RFC 3339 with second precision as Kick sends it. */
  timestamp: string;
  body: string;
}

export interface SignedDelivery extends Delivery {
  signature: string;
}

/** `2026-03-02T18:04:11Z`: UTC, whole seconds, as Kick writes its timestamps. */
export function rfc3339Seconds(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}Z`;
}

const user = ({ userId, username }: KickUserRef, identity: unknown) => ({
  is_anonymous: false,
  user_id: userId,
  username,
  is_verified: false,
  profile_picture: '',
  channel_slug: username,
  identity,
});

/** The body of a chat.message.sent delivery (kick-api.md §8.9), serialised once. */
export function chatMessageSentBody(input: ChatMessageInput): string {
  return JSON.stringify({
    message_id: input.chatMessageId,
    replies_to: null,
    broadcaster: user(input.broadcaster, null),
    sender: user(input.sender, { username_color: '#1E90FF', badges: [] }),
    content: input.content,
    emotes: [],
    created_at: input.createdAt,
  });
}

export function kickSignature(privateKey: KeyObject | string, delivery: Delivery): string {
  return createSign('RSA-SHA256')
    .update(`${delivery.messageId}.${delivery.timestamp}.`)
    .update(delivery.body)
    .sign(privateKey, 'base64');
}

export function deliveryHeaders(delivery: SignedDelivery): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'Kick-Event-Message-Id': delivery.messageId,
    'Kick-Event-Subscription-Id': delivery.subscriptionId,
    'Kick-Event-Signature': delivery.signature,
    'Kick-Event-Message-Timestamp': delivery.timestamp,
    'Kick-Event-Type': 'chat.message.sent',
    'Kick-Event-Version': '1',
  };
}

/**
 * The request line and headers of a delivery's HTTP/1.1 request, up to and including the blank
 * line (ASCII: written as latin1), for a body of `bodyLength` bytes.
 */
export function deliveryRequestHead(
  hostHeader: string,
  path: string,
  delivery: SignedDelivery,
  bodyLength: number,
): string {
  let head = `POST ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\nContent-Length: ${bodyLength}\r\n`;
  for (const [name, value] of Object.entries(deliveryHeaders(delivery))) head += `${name}: ${value}\r\n`;
  return `${head}\r\n`;
}

/** The whole HTTP/1.1 request, ready to be written to a keep-alive connection. */
export function deliveryRequest(hostHeader: string, path: string, delivery: SignedDelivery): Buffer {
  const body = Buffer.from(delivery.body, 'utf8');
  return Buffer.concat([Buffer.from(deliveryRequestHead(hostHeader, path, delivery, body.length), 'latin1'), body]);
}

// Crockford's base32, as ULIDs use it
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * ULIDs (48-bit millisecond time + 80 random bits, 26 characters), monotonic within one source:
 * ids made in the same millisecond count up from a random start.
 */
export function createUlidSource(): (nowMs: number) => string {
  let lastTime = -1;
  const random = new Uint8Array(16);
  return (nowMs) => {
    const time = Math.max(Math.floor(nowMs), lastTime);
    if (time === lastTime) {
      // increment the 16 base-32 digits of the random part
      for (let i = 15; i >= 0; i--) {
        random[i] = ((random[i] as number) + 1) & 31;
        if (random[i] !== 0) break;
      }
    } else {
      lastTime = time;
      const bytes = randomBytes(16);
      for (let i = 0; i < 16; i++) random[i] = (bytes[i] as number) & 31;
    }
    let out = '';
    let rest = time;
    for (let i = 0; i < 10; i++) {
      out = crockford[rest % 32] + out;
      rest = Math.floor(rest / 32);
    }
    for (let i = 0; i < 16; i++) out += crockford[random[i] as number];
    return out;
  };
}
