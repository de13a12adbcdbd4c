import { createVerify, generateKeyPairSync } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { deliveryRequest, kickSignature } from './kick-delivery';
import { createDeliveryMaker, measureSigningMs, plannedStart, signBatch } from './presign';
import { RequestArena } from './request-arena';

describe('plannedStart', () => {
  test('when a phase is signed, then it starts on a whole second, after twice the expected signing time and a second', () => {
    const now = Date.parse('2026-11-25T20:00:00.250Z');
    const signingMs = (10_000 * 0.7) / Math.max(1, availableParallelism());

    const start = plannedStart(10_000, 0.7, now);

    expect(start % 1000).toBe(0);
    expect(start).toBeGreaterThanOrEqual(now + 2 * signingMs + 1000);
    expect(start).toBeLessThan(now + 2 * signingMs + 2000);
  });
});

describe('measureSigningMs', () => {
  test('when signatures are timed, then the cost of one is a finite number of milliseconds above zero', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

    const signatureMs = measureSigningMs(pem, 2, 10);

    expect(Number.isFinite(signatureMs)).toBe(true);
    expect(signatureMs).toBeGreaterThan(0);
  });
});

describe('createDeliveryMaker', () => {
  test('when a phase runs longer than the signature window, then each delivery is stamped with its own planned send time', () => {
    const startsAt = Date.parse('2026-11-25T20:00:00.000Z');
    const channel = {
      userId: 'u1',
      username: 'streamer',
      kickUserId: 42,
      kickUsername: 'streamer',
      subscriptionId: 'sub-1',
      commands: [],
    };
    const message = (atMs: number) => ({
      atMs,
      channel: 0,
      senderUserId: 7,
      senderUsername: 'viewer',
      content: 'hi',
      isCommand: false,
      expectsReply: false,
      isWarmup: false,
    });

    const makeDelivery = createDeliveryMaker([channel], startsAt, startsAt - 90_000);
    const unsigned = [message(0), message(400_250)].map((planned) => makeDelivery(planned).delivery);

    expect(unsigned.map((delivery) => delivery.timestamp)).toEqual(['2026-11-25T20:00:00Z', '2026-11-25T20:06:40Z']);
    expect(unsigned.map((delivery) => (JSON.parse(delivery.body) as { created_at: string }).created_at)).toEqual([
      '2026-11-25T20:00:00Z',
      '2026-11-25T20:06:40Z',
    ]);
  });
});

describe('signBatch', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const channels = [0, 1].map((n) => ({
    userId: `u${n}`,
    username: `streamer_${n}`,
    kickUserId: 42 + n,
    kickUsername: `streamer_${n}`,
    subscriptionId: `sub-${n}`,
    commands: ['c0'],
  }));
  const plan = ['hello chat 0', '$c0 @viewer_9 — ü', 'gg 2'].map((content, i) => ({
    atMs: i * 1000,
    channel: i % 2,
    senderUserId: 800_000_000 + i,
    senderUsername: `viewer_${i}`,
    content,
    isCommand: content.startsWith('$'),
    expectsReply: content.startsWith('$'),
    isWarmup: false,
  }));
  const target = { hostHeader: '127.0.0.1:3000', path: '/api/kick/webhook' };

  test('when a batch is signed and packed, then each request is byte for byte the one deliveryRequest writes for it, its signature checked as kick-api.md §8.6 does', () => {
    const makeDelivery = createDeliveryMaker(channels, Date.parse('2026-11-25T20:00:00.000Z'));
    const deliveries = plan.map((message) => makeDelivery(message).delivery);

    const arena = new RequestArena(deliveries.length);
    arena.add(
      0,
      signBatch(
        privateKey,
        target,
        deliveries.map((d) => [d.messageId, d.subscriptionId, d.timestamp, d.body]),
      ),
    );

    deliveries.forEach((delivery, i) => {
      const signature = kickSignature(privateKey, delivery);
      const expected = deliveryRequest(target.hostHeader, target.path, { ...delivery, signature });
      const bytes = arena.get(i);
      expect(bytes.equals(expected)).toBe(true);
      // and what the product reads from those bytes verifies
      const headEnd = bytes.indexOf('\r\n\r\n');
      const header = (name: string) =>
        new RegExp(`^${name}: (.*)$`, 'm').exec(bytes.subarray(0, headEnd).toString('latin1'))?.[1]?.trim() ?? '';
      const verifier = createVerify('RSA-SHA256');
      verifier.update(`${header('Kick-Event-Message-Id')}.${header('Kick-Event-Message-Timestamp')}.`);
      verifier.update(bytes.subarray(headEnd + 4));
      expect(verifier.verify(publicKey, header('Kick-Event-Signature'), 'base64')).toBe(true);
      expect(header('Content-Length')).toBe(String(bytes.length - headEnd - 4));
    });
  });
});
