import { createPublicKey, createSign, generateKeyPairSync } from 'node:crypto';
import { createFakeClock } from '@kickstand/platform/testing';
import { createSilentLogger } from '@kickstand/platform/log';
import type { KickClient } from './kick-client';
import { resolveOptions } from './options';
import { checkTimestamp, createWebhookVerifier, kickPublishedPublicKey } from './webhook-verification';

const pem = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const first = pem();
const second = pem();

const clock = createFakeClock(new Date('2026-03-02T18:04:11Z'));

/** A Kick whose /public-key serves `keys.current`, or fails while it is null. */
function kickServing(keys: { current: string | null }) {
  let fetches = 0;
  const calls: unknown[][] = [];
  const kick: Pick<KickClient, 'publicKey'> = {
    publicKey: async (...args: unknown[]) => {
      fetches += 1;
      calls.push(args);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (keys.current === null) throw new Error('Kick could not be reached');
      return keys.current;
    },
  };
  return { kick, fetches: () => fetches, calls };
}

function delivery(privateKey: string, options: { body?: string; timestamp?: string; messageId?: string } = {}) {
  const body = options.body ?? '{"message_id":"m1","content":"hi"}';
  const timestamp = options.timestamp ?? '2026-03-02T18:04:11Z';
  const messageId = options.messageId ?? '01JK7Z8Q4W2M6B3T5N9R1C0XYZ';
  const signature = createSign('RSA-SHA256').update(`${messageId}.${timestamp}.${body}`).sign(privateKey, 'base64');
  return {
    headers: {
      'kick-event-message-id': messageId,
      'kick-event-subscription-id': '01JK7Z8Q4W2M6B3T5N9R1C0SUB',
      'kick-event-signature': signature,
      'kick-event-message-timestamp': timestamp,
      'kick-event-type': 'chat.message.sent',
      'kick-event-version': '1',
    },
    body: Buffer.from(body),
  };
}

const verifierFor = (kick: Pick<KickClient, 'publicKey'>, refetchIntervalMs = 60_000, fallbackPem?: string) =>
  createWebhookVerifier({
    kick,
    clock,
    log: createSilentLogger(),
    toleranceSeconds: 300,
    refetchIntervalMs,
    fallbackPem,
  });

beforeEach(() => clock.set(new Date('2026-03-02T18:04:11Z')));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('webhook verification', () => {
  test("when a delivery is signed with Kick's key, then it is valid and the key is fetched once for many deliveries", async () => {
    const kick = kickServing({ current: first.publicKey });
    const verifier = verifierFor(kick.kick);
    const one = delivery(first.privateKey);

    const verdicts = await Promise.all([1, 2, 3].map(() => verifier.verify(one.headers, one.body)));

    expect(verdicts.every((verdict) => verdict.isValid)).toBe(true);
    expect(kick.fetches()).toBe(1);
    // no token: the key must be had without app credentials (kick-api.md §7)
    expect(kick.calls).toEqual([[]]);
  });

  test('when Kick rotated its key, then the first check fails, the key is fetched again once and the delivery passes', async () => {
    const keys = { current: first.publicKey };
    const kick = kickServing(keys);
    const verifier = verifierFor(kick.kick);
    const before = delivery(first.privateKey);
    expect((await verifier.verify(before.headers, before.body)).isValid).toBe(true);

    keys.current = second.publicKey;
    const after = delivery(second.privateKey);

    expect((await verifier.verify(after.headers, after.body)).isValid).toBe(true);
    expect(kick.fetches()).toBe(2);
  });

  test('when forged deliveries keep coming, then the key is fetched again at most once per interval', async () => {
    const kick = kickServing({ current: first.publicKey });
    const verifier = verifierFor(kick.kick, 60_000);
    const forged = delivery(second.privateKey);

    for (let i = 0; i < 5; i += 1) {
      expect(await verifier.verify(forged.headers, forged.body)).toMatchObject({
        isValid: false,
        reason: 'bad-signature',
        problem: 'the signature does not verify',
      });
      clock.advance(10_000);
    }
    // the first fetch, and one more for the first failure; the others fall within the minute
    expect(kick.fetches()).toBe(2);

    clock.advance(10_000);
    await verifier.verify(forged.headers, forged.body);
    // a minute after the last one: once more
    expect(kick.fetches()).toBe(3);
  });

  test('when no interval is given, then the key is fetched again at most once a minute', () => {
    expect(
      resolveOptions({
        kick: { clientId: 'c', clientSecret: 's', redirectUri: 'http://x', oauthUrl: 'http://x', apiUrl: 'http://x' },
      }).publicKeyRefetchIntervalMs,
    ).toBe(60_000);
  });

  test("when Kick's key cannot be fetched, then the key published in Kick's docs is used and the fetch is tried again a minute later", async () => {
    const keys: { current: string | null } = { current: null };
    const kick = kickServing(keys);
    // the fallback of the tests is `first`: Kick's published key has no private half here
    const verifier = verifierFor(kick.kick, 60_000, first.publicKey);
    const signed = delivery(first.privateKey);

    expect(await verifier.verify(signed.headers, signed.body)).toMatchObject({ isValid: true });
    expect(kick.fetches()).toBe(1);

    // a forged one within the minute: no fetch
    const forged = delivery(second.privateKey);
    expect(await verifier.verify(forged.headers, forged.body)).toMatchObject({ reason: 'bad-signature' });
    expect(kick.fetches()).toBe(1);

    // Kick answers again, with a rotated key: after a minute it is fetched and used
    keys.current = second.publicKey;
    clock.advance(60_000);
    const later = delivery(second.privateKey, {
      timestamp: '2026-03-02T18:06:11Z',
      messageId: '01JK7Z8Q4W2M6B3T5N9R1C0ABC',
    });
    expect(await verifier.verify(later.headers, later.body)).toMatchObject({ isValid: true });
    expect(kick.fetches()).toBe(2);
    await settle();
  });

  test("when no fallback is given, then it is Kick's published key of kick-api.md §7", async () => {
    expect(createPublicKey(kickPublishedPublicKey).asymmetricKeyType).toBe('rsa');
    expect(kickPublishedPublicKey).toContain('MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq/+l1WnlRrGSolDMA+A8');
    const kick = kickServing({ current: null });
    const verifier = verifierFor(kick.kick);
    const signed = delivery(first.privateKey);

    expect(await verifier.verify(signed.headers, signed.body)).toMatchObject({
      isValid: false,
      reason: 'bad-signature',
    });
  });

  test('when the signature is right but the timestamp is stale, then it is refused as stale-timestamp with its headers', async () => {
    const kick = kickServing({ current: first.publicKey });
    const old = delivery(first.privateKey, { timestamp: '2026-03-02T17:50:00Z' });

    expect(await verifierFor(kick.kick).verify(old.headers, old.body)).toMatchObject({
      isValid: false,
      reason: 'stale-timestamp',
      headers: { messageId: '01JK7Z8Q4W2M6B3T5N9R1C0XYZ', eventType: 'chat.message.sent' },
    });
  });

  test('when the body, the timestamp or the message id differ from what was signed, then it is invalid', async () => {
    const kick = kickServing({ current: first.publicKey });
    const verifier = verifierFor(kick.kick, 0);
    const genuine = delivery(first.privateKey);

    const body = await verifier.verify(genuine.headers, Buffer.from('{"message_id":"m1","content":"ho"}'));
    const id = await verifier.verify({ ...genuine.headers, 'kick-event-message-id': 'X' }, genuine.body);
    const time = await verifier.verify(
      { ...genuine.headers, 'kick-event-message-timestamp': '2026-03-02T18:04:12Z' },
      genuine.body,
    );

    expect([body.isValid, id.isValid, time.isValid]).toEqual([false, false, false]);
  });

  test('when a header is missing, then it is invalid without asking Kick for the key', async () => {
    const kick = kickServing({ current: first.publicKey });
    const genuine = delivery(first.privateKey);
    const { 'kick-event-signature': _signature, ...headers } = genuine.headers;

    expect(await verifierFor(kick.kick).verify(headers, genuine.body)).toMatchObject({ isValid: false });
    expect(kick.fetches()).toBe(0);
  });
});

describe('checkTimestamp', () => {
  const now = new Date('2026-03-02T18:04:11Z');

  test.each([
    ['exactly now', '2026-03-02T18:04:11Z'],
    ['with milliseconds', '2026-03-02T18:04:11.634Z'],
    ['with an offset', '2026-03-03T05:04:11+11:00'],
    ['five minutes ago', '2026-03-02T17:59:11Z'],
    ['five minutes ahead', '2026-03-02T18:09:11Z'],
  ])('when the timestamp is %s, then it is accepted', (_name, timestamp) => {
    expect(checkTimestamp(timestamp, now, 300)).toHaveProperty('sentAt');
  });

  test.each([
    ['more than five minutes old', '2026-03-02T17:59:10Z'],
    ['more than five minutes ahead', '2026-03-02T18:09:12Z'],
    ['not RFC 3339', 'Mon, 02 Mar 2026 18:04:11 GMT'],
    ['a number', '1772474651'],
  ])('when the timestamp is %s, then it is refused', (_name, timestamp) => {
    expect(checkTimestamp(timestamp, now, 300)).toHaveProperty('problem');
  });
});
