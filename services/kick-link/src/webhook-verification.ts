import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { KickClient } from './kick-client';

/** The six Kick-Event-* headers of a delivery (kick-api.md §8.6). */
export interface DeliveryHeaders {
  messageId: string;
  subscriptionId: string;
  signature: string;
  timestamp: string;
  eventType: string;
  eventVersion: string;
}

/**
 * Why a delivery is refused: its headers are incomplete or its signature does not verify (both
 * counted as `bad-signature`: nothing proves Kick sent it), or it is correctly signed but its
 * timestamp is unreadable, too old or too far ahead (`stale-timestamp`: its body is Kick's, so its
 * channel may be read).
 */
export type Verdict =
  | { isValid: true; headers: DeliveryHeaders; sentAt: Date }
  | { isValid: false; reason: 'missing-header'; problem: string }
  | { isValid: false; reason: 'bad-signature' | 'stale-timestamp'; problem: string; headers: DeliveryHeaders };

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

/**
 * The key Kick publishes in its docs (kick-api.md §7), copied exactly. Used only while Kick's
 * /public-key cannot be fetched: the same key signs deliveries to every app.
 */
export const kickPublishedPublicKey = [
  '-----BEGIN PUBLIC KEY-----',
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq/+l1WnlRrGSolDMA+A8',
  '6rAhMbQGmQ2SapVcGM3zq8ANXjnhDWocMqfWcTd95btDydITa10kDvHzw9WQOqp2',
  'MZI7ZyrfzJuz5nhTPCiJwTwnEtWft7nV14BYRDHvlfqPUaZ+1KR4OCaO/wWIk/rQ',
  'L/TjY0M70gse8rlBkbo2a8rKhu69RQTRsoaf4DVhDPEeSeI5jVrRDGAMGL3cGuyY',
  '6CLKGdjVEM78g3JfYOvDU/RvfqD7L89TZ3iN94jrmWdGz34JNlEI5hqK8dd7C5EF',
  'BEbZ5jgB8s8ReQV8H+MkuffjdAj3ajDDX3DOJMIut1lBrUVD1AaSrGCKHooWoL2e',
  'twIDAQAB',
  '-----END PUBLIC KEY-----',
  '',
].join('\n');

export interface WebhookVerifier {
  /** Never throws: without a fetched key, the built-in one is used. */
  verify(headers: IncomingHttpHeaders, rawBody: Buffer): Promise<Verdict>;
}

interface PublicKey {
  key: KeyObject;
  pem: string;
  /** Fetched from Kick, or the built-in fallback. */
  isFallback: boolean;
}

/**
 * Kick's public key is fetched without a token (so verification never depends on app
 * credentials, §7) once, and cached. When a signature does not verify, the key is fetched again
 * (Kick may have rotated it) and the check repeated; a delivery that fails with the fresh key too
 * is refused. Forged requests cannot make us hammer Kick: a fetch after the first happens at most
 * once per `refetchIntervalMs`. When a fetch fails, the key published in Kick's docs is used
 * (a warning is logged) and the fetch is tried again, in the background, once the interval passed.
 */
export function createWebhookVerifier(deps: {
  kick: Pick<KickClient, 'publicKey'>;
  clock: Clock;
  log: Logger;
  toleranceSeconds: number;
  refetchIntervalMs: number;
  /** The key used while none could be fetched; Kick's published key by default (tests: the sandbox's). */
  fallbackPem?: string;
}): WebhookVerifier {
  const { kick, clock, log, toleranceSeconds, refetchIntervalMs } = deps;
  const fallback: PublicKey = {
    key: createPublicKey(deps.fallbackPem ?? kickPublishedPublicKey),
    pem: deps.fallbackPem ?? kickPublishedPublicKey,
    isFallback: true,
  };
  let current: PublicKey | undefined;
  let fetching: Promise<PublicKey> | undefined;
  // when a fetch after the first may happen again
  let nextFetchAtMs = Number.NEGATIVE_INFINITY;

  const isFetchDue = () => clock.now().getTime() >= nextFetchAtMs;

  /** Kick's key, or (the fetch failed) the one in use, else the fallback. Never throws. */
  function fetchKey(): Promise<PublicKey> {
    // concurrent deliveries share one fetch
    fetching ??= (async (): Promise<PublicKey> => {
      try {
        const pem = await kick.publicKey();
        const fetched: PublicKey = { key: createPublicKey(pem), pem, isFallback: false };
        if (current && current.pem !== pem) log.info("Kick's webhook public key changed");
        current = fetched;
        return fetched;
      } catch (err) {
        nextFetchAtMs = clock.now().getTime() + refetchIntervalMs;
        const inUse = current ?? fallback;
        log.warn(
          { err },
          inUse.isFallback
            ? "Kick's webhook public key could not be fetched: the key published in Kick's docs is used"
            : "Kick's webhook public key could not be fetched again: the cached key stays in use",
        );
        current = inUse;
        return inUse;
      }
    })().finally(() => {
      fetching = undefined;
    });
    return fetching;
  }

  /** A newer key than the one that failed, or null when there is none to try. */
  async function newerThan(failed: PublicKey): Promise<KeyObject | null> {
    if (current && current.pem !== failed.pem) return current.key;
    // a fetch under way (the fallback's background one) is waited for; else one may start if due
    if (!fetching && !isFetchDue()) return null;
    if (!fetching) nextFetchAtMs = clock.now().getTime() + refetchIntervalMs;
    const fetched = await fetchKey();
    return fetched.pem === failed.pem ? null : fetched.key;
  }

  async function isSignedByKick(headers: DeliveryHeaders, rawBody: Buffer): Promise<boolean> {
    const known = current ?? (await fetchKey());
    // on the fallback, Kick's own key is asked for again once the interval passed, without waiting
    if (known.isFallback && !fetching && isFetchDue()) {
      nextFetchAtMs = clock.now().getTime() + refetchIntervalMs;
      void fetchKey();
    }
    if (isSignatureValid(known.key, headers, rawBody)) return true;
    const newer = await newerThan(known);
    return newer !== null && isSignatureValid(newer, headers, rawBody);
  }

  return {
    async verify(rawHeaders, rawBody) {
      const headers = readDeliveryHeaders(rawHeaders);
      if (!headers) return { isValid: false, reason: 'missing-header', problem: 'a Kick-Event-* header is missing' };
      if (!(await isSignedByKick(headers, rawBody))) {
        return { isValid: false, reason: 'bad-signature', problem: 'the signature does not verify', headers };
      }
      // checked after the signature, so that a stale delivery is known to be Kick's (its channel counts)
      const time = checkTimestamp(headers.timestamp, clock.now(), toleranceSeconds);
      if ('problem' in time) return { isValid: false, reason: 'stale-timestamp', problem: time.problem, headers };
      return { isValid: true, headers, sentAt: time.sentAt };
    },
  };
}
