import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { ulidPattern } from '../ids';
import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';
import type { ReceivedDelivery } from '../testing/webhook-receiver';

// kick-api.md §8.6, verbatim (hence no formatting): what the product runs on every delivery.
// prettier-ignore
function isKickSignatureValid(
  publicKeyPem: string,
  headers: { messageId: string; timestamp: string; signature: string },
  rawBody: Buffer,
): boolean {
  const verifier = createVerify("RSA-SHA256");          // PKCS#1 v1.5 padding for RSA keys
  verifier.update(`${headers.messageId}.${headers.timestamp}.`);
  verifier.update(rawBody);
  verifier.end();
  return verifier.verify(publicKeyPem, headers.signature, "base64");
}

const streamer = seedUserIds.sandbox_streamer;

const header = (delivery: ReceivedDelivery | undefined, name: string): string => {
  const value = delivery?.headers[name];
  return typeof value === 'string' ? value : '';
};

const verifies = (publicKey: string, delivery: ReceivedDelivery | undefined) =>
  delivery !== undefined &&
  isKickSignatureValid(
    publicKey,
    {
      messageId: header(delivery, 'kick-event-message-id'),
      timestamp: header(delivery, 'kick-event-message-timestamp'),
      signature: header(delivery, 'kick-event-signature'),
    },
    delivery.rawBody,
  );

interface DeliveryRecord {
  messageId: string;
  state: string;
  faults: string[];
  attempts: { kind: string; status: number | null }[];
}

async function subscribe(sandbox: SandboxHarness, events: string[], broadcasterUserId: number = streamer) {
  const token = await sandbox.appToken();
  const answer = await sandbox.request('POST', '/public/v1/events/subscriptions', {
    token,
    body: {
      broadcaster_user_id: broadcasterUserId,
      method: 'webhook',
      events: events.map((name) => ({ name, version: 1 })),
    },
  });
  return (answer.json as { data: { subscription_id: string }[] }).data.map((item) => item.subscription_id);
}

const chatAs = (sandbox: SandboxHarness, content: string, broadcaster = streamer) =>
  sandbox.control('POST', '/events/chat', { broadcaster, sender: 'viewer_alice', content });

async function publicKeyOf(sandbox: SandboxHarness): Promise<string> {
  const answer = await sandbox.request('GET', '/public/v1/public-key', { token: await sandbox.appToken() });
  return (answer.json as { data: { public_key: string } }).data.public_key;
}

const contentOf = (delivery: ReceivedDelivery | undefined) =>
  (delivery?.body as { content?: string } | undefined)?.content;

describe('webhook deliveries', () => {
  let sandbox: SandboxHarness;
  beforeEach(async () => {
    sandbox = await startSandboxForTest();
  });
  afterEach(() => sandbox.close());

  test('when an event happens, then the bare payload arrives with all six Kick-Event headers and a signature that verifies', async () => {
    const [subscriptionId] = await subscribe(sandbox, ['channel.followed']);
    await sandbox.control('POST', '/events/follow', { broadcaster: streamer, follower: 'new_fan' });
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(header(delivery, 'kick-event-message-id')).toMatch(ulidPattern);
    expect(header(delivery, 'kick-event-subscription-id')).toBe(subscriptionId);
    expect(header(delivery, 'kick-event-message-timestamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Math.abs(Date.parse(header(delivery, 'kick-event-message-timestamp')) - Date.now())).toBeLessThan(5000);
    expect(header(delivery, 'kick-event-type')).toBe('channel.followed');
    expect(header(delivery, 'kick-event-version')).toBe('1');
    expect(header(delivery, 'kick-event-signature')).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(delivery?.body).toMatchObject({ broadcaster: { user_id: streamer }, follower: { username: 'new_fan' } });
    expect(verifies(await publicKeyOf(sandbox), delivery)).toBe(true);
  });

  test('when the control API answers a trigger, then the delivery is already recorded and later marked delivered with the status', async () => {
    await subscribe(sandbox, ['channel.followed']);
    const triggered = await sandbox.control<{ deliveries: { messageId: string; state: string }[] }>(
      'POST',
      '/events/follow',
      {
        broadcaster: streamer,
        follower: 'viewer_bob',
      },
    );
    expect(triggered.deliveries).toHaveLength(1);
    await sandbox.receiver.waitFor(1);
    const [record] = await sandbox.control<DeliveryRecord[]>('GET', '/deliveries?state=delivered&waitMs=2000');
    expect(record).toMatchObject({
      messageId: triggered.deliveries[0]?.messageId,
      state: 'delivered',
      attempts: [{ kind: 'first', status: 200 }],
    });
  });

  test('when nothing subscribed to the event, then nothing is delivered', async () => {
    await subscribe(sandbox, ['channel.followed'], seedUserIds.other_streamer);
    const triggered = await sandbox.control<{ deliveries: unknown[] }>('POST', '/events/follow', {
      broadcaster: streamer,
      follower: 'x_fan',
    });
    expect(triggered.deliveries).toEqual([]);
  });

  test('when one channel has several events, then they arrive in the order they happened', async () => {
    await subscribe(sandbox, ['chat.message.sent']);
    for (let i = 1; i <= 6; i += 1) await chatAs(sandbox, `message ${i}`);
    const received = await sandbox.receiver.waitFor(6);
    expect(received.map(contentOf)).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      'message 5',
      'message 6',
    ]);
  });

  test('when a channel is subscribed twice to an event, then two deliveries with different message and subscription ids', async () => {
    const [first] = await subscribe(sandbox, ['chat.message.sent']);
    const [second] = await subscribe(sandbox, ['chat.message.sent']);
    await chatAs(sandbox, 'twice');
    const received = await sandbox.receiver.waitFor(2);
    expect(new Set(received.map((d) => header(d, 'kick-event-message-id'))).size).toBe(2);
    expect(received.map((d) => header(d, 'kick-event-subscription-id')).sort()).toEqual([first, second].sort());
  });

  test('when the signing key is rotated, then the public key changes and new deliveries verify only with the new one', async () => {
    await subscribe(sandbox, ['chat.message.sent']);
    const oldKey = await publicKeyOf(sandbox);
    const { publicKey } = await sandbox.control<{ publicKey: string }>('POST', '/signing-key/rotate');
    expect(publicKey).not.toBe(oldKey);
    expect(await publicKeyOf(sandbox)).toBe(publicKey);
    await chatAs(sandbox, 'signed anew');
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(verifies(publicKey, delivery)).toBe(true);
    expect(verifies(oldKey, delivery)).toBe(false);
  });
});

describe('a configured signing key', () => {
  test('when signingKeyPem is given, then deliveries are signed with it and the public key is its own', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const sandbox = await startSandboxForTest({ options: { signingKeyPem: privateKey } });
    try {
      expect(await publicKeyOf(sandbox)).toBe(publicKey);
      await subscribe(sandbox, ['chat.message.sent']);
      await chatAs(sandbox, 'signed with the given key');
      const [delivery] = await sandbox.receiver.waitFor(1);
      expect(verifies(publicKey, delivery)).toBe(true);
      // anyone holding the key signs exactly as the sandbox does
      const signature = createSign('RSA-SHA256')
        .update(`${header(delivery, 'kick-event-message-id')}.${header(delivery, 'kick-event-message-timestamp')}.`)
        .update(delivery?.rawBody ?? Buffer.alloc(0))
        .sign(privateKey, 'base64');
      expect(header(delivery, 'kick-event-signature')).toBe(signature);
    } finally {
      await sandbox.close();
    }
  });
});

describe('fault injection', () => {
  let sandbox: SandboxHarness;
  beforeEach(async () => {
    sandbox = await startSandboxForTest();
    await subscribe(sandbox, ['chat.message.sent', 'channel.followed']);
  });
  afterEach(() => sandbox.close());

  const deliveries = () => sandbox.control<DeliveryRecord[]>('GET', '/deliveries');

  test('when duplicate is on, then the same delivery arrives twice with the same message id, both verifying', async () => {
    await sandbox.control('PATCH', '/faults', { duplicate: 1 });
    await chatAs(sandbox, 'dup');
    const received = await sandbox.receiver.waitFor(2);
    expect(header(received[0], 'kick-event-message-id')).toBe(header(received[1], 'kick-event-message-id'));
    expect(received[0]?.rawBody.equals(received[1]?.rawBody ?? Buffer.alloc(0))).toBe(true);
    const key = await publicKeyOf(sandbox);
    expect(received.every((d) => verifies(key, d))).toBe(true);
    const [record] = await deliveries();
    expect(record?.attempts.map((a) => a.kind)).toEqual(['first', 'duplicate']);
  });

  test('when drop is on, then the delivery is recorded as dropped and never sent', async () => {
    await sandbox.control('PATCH', '/faults', { drop: 1 });
    await chatAs(sandbox, 'lost');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sandbox.receiver.deliveries).toHaveLength(0);
    expect(await deliveries()).toEqual([expect.objectContaining({ state: 'dropped', faults: ['drop'], attempts: [] })]);
  });

  test('when out-of-order is on, then each delivery arrives after the one that followed it', async () => {
    await sandbox.control('PATCH', '/faults', { outOfOrder: 1 });
    for (const content of ['one', 'two', 'three', 'four']) await chatAs(sandbox, content);
    const received = await sandbox.receiver.waitFor(4);
    expect(received.map(contentOf)).toEqual(['two', 'one', 'four', 'three']);
  });

  test('when out-of-order holds the last delivery, then it is still sent after the hold time', async () => {
    await sandbox.control('PATCH', '/faults', { outOfOrder: 1 });
    await chatAs(sandbox, 'alone');
    const [delivery] = await sandbox.receiver.waitFor(1, undefined, 3000);
    expect(contentOf(delivery)).toBe('alone');
  });

  test('when the webhook fails and retries are allowed, then up to 3 attempts with the same message id', async () => {
    await sandbox.control('PATCH', '/faults', { maxAttempts: 3 });
    sandbox.receiver.respondWith((index) => (index < 2 ? 500 : 200));
    await chatAs(sandbox, 'persist');
    const received = await sandbox.receiver.waitFor(3);
    expect(new Set(received.map((d) => header(d, 'kick-event-message-id'))).size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [record] = await deliveries();
    expect(record?.state).toBe('delivered');
    expect(record?.attempts.map((a) => [a.kind, a.status])).toEqual([
      ['first', 500],
      ['retry', 500],
      ['retry', 200],
    ]);
  });

  test('when the webhook fails and retries are off (the default), then one attempt and the delivery is failed', async () => {
    sandbox.receiver.respondWith(503);
    await chatAs(sandbox, 'once');
    await sandbox.receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sandbox.receiver.deliveries).toHaveLength(1);
    expect(await deliveries()).toEqual([
      expect.objectContaining({ state: 'failed', attempts: [expect.objectContaining({ status: 503 })] }),
    ]);
  });

  test('when the webhook cannot be reached, then the attempt is recorded with an error and no status', async () => {
    await sandbox.control('PATCH', '/app', { webhookUrl: 'http://127.0.0.1:1/api/kick/webhook' });
    await chatAs(sandbox, 'nowhere');
    const [record] = await sandbox.control<(DeliveryRecord & { attempts: { error: string | null }[] })[]>(
      'GET',
      '/deliveries?state=failed&waitMs=3000',
    );
    expect(record?.attempts[0]).toMatchObject({ status: null, error: expect.any(String) });
  });

  test('when stale timestamps are on, then the timestamp is 10 minutes old yet correctly signed', async () => {
    await sandbox.control('PATCH', '/faults', { staleTimestamp: 1 });
    await chatAs(sandbox, 'old news');
    const [delivery] = await sandbox.receiver.waitFor(1);
    const age = Date.now() - Date.parse(header(delivery, 'kick-event-message-timestamp'));
    expect(age).toBeGreaterThanOrEqual(599_000);
    expect(verifies(await publicKeyOf(sandbox), delivery)).toBe(true);
  });

  test('when bad signatures are on, then the signature does not verify', async () => {
    await sandbox.control('PATCH', '/faults', { badSignature: 1 });
    await chatAs(sandbox, 'forged?');
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(header(delivery, 'kick-event-signature')).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(verifies(await publicKeyOf(sandbox), delivery)).toBe(false);
  });

  test('when auto-unsubscribe is on and the webhook keeps failing, then the subscription is removed after that many failures', async () => {
    await sandbox.control('PATCH', '/faults', { autoUnsubscribeAfterFailures: 2 });
    sandbox.receiver.respondWith(500);
    await chatAs(sandbox, 'fail 1');
    await chatAs(sandbox, 'fail 2');
    await sandbox.receiver.waitFor(2);
    const app = await sandbox.appToken();
    for (let i = 0; i < 50; i += 1) {
      const listed = await sandbox.request('GET', '/public/v1/events/subscriptions', { token: app });
      const events = (listed.json as { data: { event: string }[] }).data.map((s) => s.event);
      if (!events.includes('chat.message.sent')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const listed = await sandbox.request('GET', '/public/v1/events/subscriptions', { token: app });
    expect((listed.json as { data: { event: string }[] }).data.map((s) => s.event)).toEqual(['channel.followed']);
    await chatAs(sandbox, 'after');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sandbox.receiver.deliveries).toHaveLength(2);
  });

  test('when faults are limited to one event type, then other types are delivered normally', async () => {
    await sandbox.control('PATCH', '/faults', { drop: 1, onlyEventTypes: ['chat.message.sent'] });
    await chatAs(sandbox, 'dropped');
    await sandbox.control('POST', '/events/follow', { broadcaster: streamer, follower: 'fan_ok' });
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(header(delivery, 'kick-event-type')).toBe('channel.followed');
  });

  test('when the faults are reset, then deliveries are normal again', async () => {
    await sandbox.control('PATCH', '/faults', { drop: 1, badSignature: 1 });
    const reset = await sandbox.control<Record<string, unknown>>('DELETE', '/faults');
    expect(reset).toEqual({
      duplicate: 0,
      drop: 0,
      outOfOrder: 0,
      staleTimestamp: 0,
      badSignature: 0,
      maxAttempts: 1,
      autoUnsubscribeAfterFailures: null,
      onlyEventTypes: null,
    });
    await chatAs(sandbox, 'normal');
    const [delivery] = await sandbox.receiver.waitFor(1);
    expect(verifies(await publicKeyOf(sandbox), delivery)).toBe(true);
  });

  test('when a fault setting is out of range, then 400 with the reason', async () => {
    const answer = await sandbox.request('PATCH', '/sandbox/api/faults', { body: { maxAttempts: 4 } });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, error: expect.any(String) });
  });
});

describe('a restart', () => {
  test('when the sandbox restarts on the same data, then linked tokens, users and the public key are kept', async () => {
    const first = await startSandboxForTest();
    const linked = await first.linkUser('restart_streamer', ['user:read']);
    const keyBefore = await publicKeyOf(first);
    const second = await first.restart();
    try {
      expect(await publicKeyOf(second)).toBe(keyBefore);
      const answer = await second.request('GET', '/public/v1/users', { token: linked.access_token });
      expect((answer.json as { data: { name: string }[] }).data[0]?.name).toBe('restart_streamer');
    } finally {
      await second.close();
    }
  });

  test('when the sandbox restarts, then chat lines, calls and deliveries (kept in memory) start over from seq 1', async () => {
    const first = await startSandboxForTest();
    const linked = await first.linkUser('restart_talker', ['chat:write', 'events:subscribe']);
    await first.request('POST', '/public/v1/events/subscriptions', {
      token: linked.access_token,
      body: { method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] },
    });
    await first.request('POST', '/public/v1/chat', {
      token: linked.access_token,
      body: { type: 'bot', content: 'before' },
    });
    await first.receiver.waitFor(1);
    const second = await first.restart();
    try {
      expect(await second.control<unknown[]>('GET', '/chat')).toEqual([]);
      expect(await second.control<unknown[]>('GET', '/calls')).toEqual([]);
      expect(await second.control<unknown[]>('GET', '/deliveries')).toEqual([]);
      // the subscription was kept: the next line is echoed again
      await second.request('POST', '/public/v1/chat', {
        token: linked.access_token,
        body: { type: 'bot', content: 'after' },
      });
      const lines = await second.control<{ seq: number; content: string }[]>('GET', '/chat');
      expect(lines.map((line) => [line.seq, line.content])).toEqual([[1, 'after']]);
      const deliveries = await second.control<{ seq: number }[]>('GET', '/deliveries?waitMs=2000');
      expect(deliveries.map((delivery) => delivery.seq)).toEqual([1]);
    } finally {
      await second.close();
    }
  });
});
