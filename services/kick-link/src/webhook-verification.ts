import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { KickClient } from './kick-client';
import type { AppTokens } from './kick-tokens';

/** The six Kick-Event-* headers of a delivery (kick-api.md §8.6). */
export interface DeliveryHeaders {
  messageId: string;
  subscriptionId: string;
  signature: string;
  timestamp: string;
  eventType: string;
  eventVersion: string;
}

export type Verdict = { isValid: true; headers: DeliveryHeaders; sentAt: Date } | { isValid: false; reason: string };

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** The headers, or null when one that the checks need is missing (id, signature, timestamp, type). */
export function readDeliveryHeaders(headers: IncomingHttpHeaders): DeliveryHeaders | null {
  // Node lowercases header names
  const read: DeliveryHeaders = {
    messageId: header(headers, 'kick-event-message-id'),
    subscriptionId: header(headers, 'kick-event-subscription-id'),
    signature: header(headers, 'kick-event-signature'),
    timestamp: header(headers, 'kick-event-message-timestamp'),
    eventType: header(headers, 'kick-event-type'),
    eventVersion: header(headers, 'kick-event-version') || '1',
  };
  if (!read.messageId || !read.signature || !read.timestamp || !read.eventType) return null;
  return read;
}

const rfc3339Pattern = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** When Kick says it sent the delivery, or a reason to refuse it (unreadable, or too far from now). */
export function checkTimestamp(
  timestamp: string,
  now: Date,
  toleranceSeconds: number,
): { sentAt: Date } | { problem: string } {
  const ms = rfc3339Pattern.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  if (Number.isNaN(ms)) return { problem: 'the timestamp is not RFC 3339' };
  if (Math.abs(now.getTime() - ms) > toleranceSeconds * 1000) {
    return { problem: `the timestamp is more than ${toleranceSeconds} s away from now` };
  }
  return { sentAt: new Date(ms) };
}

/** RSA-SHA256 (PKCS#1 v1.5) over `messageId.timestamp.rawBody`, the header values as received. */
export function isSignatureValid(publicKey: KeyObject, headers: DeliveryHeaders, rawBody: Buffer): boolean {
  try {
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${headers.messageId}.${headers.timestamp}.`);
    verifier.update(rawBody);
    verifier.end();
    return verifier.verify(publicKey, headers.signature, 'base64');
  } catch {
    return false;
  }
}

export interface WebhookVerifier {
  /** Throws only when Kick's public key cannot be had at all (then nothing can be checked: 500). */
  verify(headers: IncomingHttpHeaders, rawBody: Buffer): Promise<Verdict>;
}

/**
 * Kick's public key is fetched once and cached. When a signature does not verify, the key is
 * fetched again once (Kick may have rotated it) and the check repeated; a delivery that fails
 * with the fresh key too is refused. Forged requests cannot make us hammer Kick: a failed check
 * fetches the key at most once per `refetchIntervalMs`.
 */
export function createWebhookVerifier(deps: {
  kick: KickClient;
  appTokens: AppTokens;
  clock: Clock;
  log: Logger;
  toleranceSeconds: number;
  refetchIntervalMs: number;
}): WebhookVerifier {
  const { kick, appTokens, clock, log, toleranceSeconds, refetchIntervalMs } = deps;
  let current: { key: KeyObject; pem: string } | undefined;
  let fetching: Promise<{ key: KeyObject; pem: string }> | undefined;
  // when a failed check last fetched the key again (the first fetch does not count)
  let lastRefetchAtMs = Number.NEGATIVE_INFINITY;

  function fetchKey(): Promise<{ key: KeyObject; pem: string }> {
    // concurrent deliveries share one fetch
    fetching ??= (async () => {
      const pem = await appTokens.withAppToken((token) => kick.publicKey(token));
      const fetched = { key: createPublicKey(pem), pem };
      if (current && current.pem !== pem) log.info("Kick's webhook public key changed");
      current = fetched;
      return fetched;
    })().finally(() => {
      fetching = undefined;
    });
    return fetching;
  }

  /** A newer key than the one that failed, or null when there is none to try. */
  async function newerThan(failed: { pem: string }): Promise<KeyObject | null> {
    if (current && current.pem !== failed.pem) return current.key;
    if (Date.now() - lastRefetchAtMs < refetchIntervalMs) return null;
    lastRefetchAtMs = Date.now();
    const fetched = await fetchKey();
    return fetched.pem === failed.pem ? null : fetched.key;
  }

  return {
    async verify(rawHeaders, rawBody) {
      const headers = readDeliveryHeaders(rawHeaders);
      if (!headers) return { isValid: false, reason: 'a Kick-Event-* header is missing' };
      const time = checkTimestamp(headers.timestamp, clock.now(), toleranceSeconds);
      if ('problem' in time) return { isValid: false, reason: time.problem };
      const known = current ?? (await fetchKey());
      if (isSignatureValid(known.key, headers, rawBody)) return { isValid: true, headers, sentAt: time.sentAt };
      const newer = await newerThan(known);
      if (newer && isSignatureValid(newer, headers, rawBody)) return { isValid: true, headers, sentAt: time.sentAt };
      return { isValid: false, reason: 'the signature does not verify' };
    },
  };
}
