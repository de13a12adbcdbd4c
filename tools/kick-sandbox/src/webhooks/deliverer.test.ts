import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSilentLogger } from '@kickstand/platform/log';
import { createFakeClock, createTestStore, eventually, type TestStore } from '@kickstand/platform/testing';
import { createApp } from '../app-settings';
import { createNotifier } from '../notifier';
import { resolveOptions, type KickSandboxDeliveryOptions } from '../options';
import { createRepository, type DeliveryDoc, type Repository } from '../repository';
import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';
import { createDeliverer, type Deliverer } from './deliverer';
import { createFaults } from './faults';
import type { Signer } from './signer';

const streamer = seedUserIds.sandbox_streamer;

interface DeliveryRecord {
  state: string;
  attempts: { kind: string; status: number | null; error: string | null }[];
}

/** A webhook of the test's own: how many connections it was opened, and what it does with each request. */
async function startWebhook(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; connections: () => number; requests: () => number; close: () => Promise<void> }> {
  let connections = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    req.resume();
    req.on('end', () => handle(req, res));
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/kick/webhook`,
    connections: () => connections,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function subscribeToChat(sandbox: SandboxHarness): Promise<void> {
  const token = await sandbox.appToken();
  await sandbox.request('POST', '/public/v1/events/subscriptions', {
    token,
    body: { broadcaster_user_id: streamer, method: 'webhook', events: [{ name: 'chat.message.sent', version: 1 }] },
  });
}

const chatAs = (sandbox: SandboxHarness, content: string) =>
  sandbox.control('POST', '/events/chat', { broadcaster: streamer, sender: 'viewer_alice', content });

/** Waits until `count` deliveries are settled (delivered or failed), oldest first. */
async function settled(sandbox: SandboxHarness, count: number): Promise<DeliveryRecord[]> {
  for (;;) {
    const all = await sandbox.control<DeliveryRecord[]>('GET', '/deliveries');
    const done = all.filter((record) => record.state === 'delivered' || record.state === 'failed');
    if (done.length >= count) return done;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the deliverer’s connections to the webhook', () => {
  let sandbox: SandboxHarness;
  afterEach(() => sandbox.close());

  test('when deliveries follow one another, then they go over one kept-alive connection', async () => {
    const webhook = await startWebhook((_req, res) => res.writeHead(200, { 'content-length': '0' }).end());
    try {
      sandbox = await startSandboxForTest({ options: { app: { webhookUrl: webhook.url } } });
      await subscribeToChat(sandbox);
      for (const content of ['one', 'two', 'three']) {
        await chatAs(sandbox, content);
        await settled(sandbox, ['one', 'two', 'three'].indexOf(content) + 1);
      }
      expect(webhook.requests()).toBe(3);
      expect(webhook.connections()).toBe(1);
    } finally {
      await webhook.close();
    }
  });

  test('when the webhook does not answer within the delivery timeout, then the attempt is a timeout without a status', async () => {
    const webhook = await startWebhook(() => undefined);
    try {
      sandbox = await startSandboxForTest({
        options: {
          app: { webhookUrl: webhook.url },
          delivery: { retryDelayMs: 20, outOfOrderHoldMs: 300, timeoutMs: 200 },
        },
      });
      await subscribeToChat(sandbox);
      await chatAs(sandbox, 'into the void');
      const [record] = await settled(sandbox, 1);
      expect(record?.state).toBe('failed');
      expect(record?.attempts).toEqual([
        expect.objectContaining({
          kind: 'first',
          status: null,
          error: 'TimeoutError: The operation was aborted due to timeout',
        }),
      ]);
    } finally {
      await webhook.close();
    }
  });

  test('when several channels have deliveries due at once, then at most maxInFlight requests are out, over as many connections, and the rest follow', async () => {
    const held: ServerResponse[] = [];
    const webhook = await startWebhook((_req, res) => held.push(res));
    try {
      sandbox = await startSandboxForTest({
        options: { app: { webhookUrl: webhook.url }, delivery: { maxInFlight: 2 } },
      });
      const token = await sandbox.appToken();
      const channels = [seedUserIds.sandbox_streamer, seedUserIds.other_streamer, seedUserIds.sandbox_bot];
      for (const channel of channels) {
        await sandbox.request('POST', '/public/v1/events/subscriptions', {
          token,
          body: {
            broadcaster_user_id: channel,
            method: 'webhook',
            events: [{ name: 'chat.message.sent', version: 1 }],
          },
        });
      }
      for (const channel of channels) {
        await sandbox.control('POST', '/events/chat', { broadcaster: channel, sender: 'viewer_alice', content: 'hi' });
      }
      while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      // the third waits for a free slot while the first two are unanswered
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(webhook.requests()).toBe(2);
      for (const res of held.splice(0)) res.writeHead(200, { 'content-length': '0' }).end();
      while (held.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      for (const res of held.splice(0)) res.writeHead(200, { 'content-length': '0' }).end();
      const records = await settled(sandbox, 3);
      expect(records.map((record) => record.state)).toEqual(['delivered', 'delivered', 'delivered']);
      expect(webhook.requests()).toBe(3);
      expect(webhook.connections()).toBe(2);
    } finally {
      await webhook.close();
    }
  });

  test('when the sandbox stops with a delivery waiting for its answer, then stop does not wait for the answer', async () => {
    const webhook = await startWebhook(() => undefined);
    try {
      sandbox = await startSandboxForTest({
        options: {
          app: { webhookUrl: webhook.url },
          // far longer than the test may take: only the stop can end the request
          delivery: { retryDelayMs: 20, outOfOrderHoldMs: 300, timeoutMs: 600_000 },
        },
      });
      await subscribeToChat(sandbox);
      await chatAs(sandbox, 'left hanging');
      while (webhook.requests() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await sandbox.stop();
      expect(webhook.requests()).toBe(1);
    } finally {
      await webhook.close();
    }
  });
});

describe('a subscription’s failure count', () => {
  let sandbox: SandboxHarness;
  beforeEach(async () => {
    sandbox = await startSandboxForTest();
    await subscribeToChat(sandbox);
  });
  afterEach(() => sandbox.close());

  const failures = async () =>
    (await sandbox.control<{ event: string; consecutiveFailures: number }[]>('GET', '/subscriptions')).map(
      (subscription) => subscription.consecutiveFailures,
    );

  test('when a delivery succeeds after failures, then the count is back to 0, and further successes keep it there', async () => {
    sandbox.receiver.respondWith((index) => (index < 2 ? 500 : 200));
    await chatAs(sandbox, 'fails');
    await settled(sandbox, 1);
    await chatAs(sandbox, 'fails again');
    await settled(sandbox, 2);
    expect(await failures()).toEqual([2]);
    await chatAs(sandbox, 'gets through');
    await settled(sandbox, 3);
    expect(await failures()).toEqual([0]);
    await chatAs(sandbox, 'and again');
    await settled(sandbox, 4);
    expect(await failures()).toEqual([0]);
  });
});

/** A signature the test has been asked for and hands out when it chooses. */
interface AskedSignature {
  messageId: string;
  isWrong: boolean;
  give(signature: string): void;
}

/** A signer whose signatures are ready only when the test gives them. */
function createHeldSigner(): Signer & { asked: AskedSignature[] } {
  const asked: AskedSignature[] = [];
  const ask = (messageId: string, isWrong: boolean) =>
    new Promise<string>((resolve) => asked.push({ messageId, isWrong, give: resolve }));
  return {
    asked,
    init: () => Promise.resolve(),
    publicKeyPem: () => '',
    sign: (messageId) => ask(messageId, false),
    signWrongly: (messageId) => ask(messageId, true),
    rotate: () => Promise.reject(new Error('not in these tests')),
  };
}

/** The deliverer on its own, with the test's signer and webhook. */
async function startDeliverer(
  signer: Signer,
  webhookUrl: string,
  delivery: KickSandboxDeliveryOptions = {},
): Promise<{
  deliverer: Deliverer;
  repo: Repository;
  testStore: TestStore;
  due(channel: number, faults?: string[]): DeliveryDoc;
}> {
  const testStore = await createTestStore('deliverer');
  const repo = createRepository(testStore.store);
  await repo.init();
  const clock = createFakeClock();
  const options = resolveOptions({
    publicUrl: 'http://127.0.0.1:3100',
    app: { clientId: 'app', clientSecret: 'secret', name: 'Kickstand', redirectUris: [], webhookUrl },
    delivery,
  });
  const deliverer = createDeliverer({
    repo,
    app: createApp({ options, repo, clock }),
    signer,
    faults: createFaults({}),
    clock,
    log: createSilentLogger(),
    notifier: createNotifier(),
    delivery: options.delivery,
  });
  let made = 0;
  return {
    deliverer,
    repo,
    testStore,
    due(channel, faults = []) {
      made += 1;
      const item = repo.deliveries.add({
        _id: `delivery-${made}`,
        messageId: `message-${made}`,
        subscriptionId: `subscription-${channel}`,
        broadcasterUserId: channel,
        eventType: 'chat.message.sent',
        eventVersion: 1,
        body: JSON.stringify({ content: `line ${made}` }),
        createdAt: clock.now(),
        faults,
        state: 'pending',
        attempts: [],
      });
      deliverer.enqueue(item);
      return item;
    },
  };
}

/** Lets every callback and timer already due run (a few turns of the event loop). */
const settle = async () => {
  for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('the deliverer’s signatures', () => {
  const signatureOf = (req: IncomingMessage) => req.headers['kick-event-signature'];

  test('when a delivery is due, then it is sent once its signature is ready, carrying that signature', async () => {
    const signatures: unknown[] = [];
    const webhook = await startWebhook((req, res) => {
      signatures.push(signatureOf(req));
      res.writeHead(200, { 'content-length': '0' }).end();
    });
    const signer = createHeldSigner();
    const { deliverer, repo, testStore, due } = await startDeliverer(signer, webhook.url);
    try {
      const item = due(1);
      await eventually(() => expect(signer.asked).toHaveLength(1));
      expect(signer.asked[0]).toMatchObject({ messageId: 'message-1', isWrong: false });
      expect(webhook.requests()).toBe(0);
      signer.asked[0]?.give('c2lnbmF0dXJlLTE=');
      await eventually(() => expect(repo.deliveries.byId(item._id)?.state).toBe('delivered'));
      expect(signatures).toEqual(['c2lnbmF0dXJlLTE=']);
    } finally {
      await deliverer.stop();
      await testStore.close();
      await webhook.close();
    }
  });

  test('when a delivery carries the bad-signature fault, then its signature is the signer’s wrong one', async () => {
    const signatures: unknown[] = [];
    const webhook = await startWebhook((req, res) => {
      signatures.push(signatureOf(req));
      res.writeHead(200, { 'content-length': '0' }).end();
    });
    const signer = createHeldSigner();
    const { deliverer, repo, testStore, due } = await startDeliverer(signer, webhook.url);
    try {
      const item = due(1, ['badSignature']);
      await eventually(() => expect(signer.asked).toHaveLength(1));
      expect(signer.asked[0]).toMatchObject({ messageId: 'message-1', isWrong: true });
      signer.asked[0]?.give('d3Jvbmc=');
      await eventually(() => expect(repo.deliveries.byId(item._id)?.state).toBe('delivered'));
      expect(signatures).toEqual(['d3Jvbmc=']);
    } finally {
      await deliverer.stop();
      await testStore.close();
      await webhook.close();
    }
  });

  test('when more channels have deliveries due than there are slots, then no more signatures are asked for than slots, and the next once a slot is free', async () => {
    const held: ServerResponse[] = [];
    const webhook = await startWebhook((_req, res) => held.push(res));
    const signer = createHeldSigner();
    const { deliverer, testStore, due } = await startDeliverer(signer, webhook.url, { maxInFlight: 2 });
    try {
      due(1);
      due(2);
      due(3);
      await eventually(() => expect(signer.asked).toHaveLength(2));
      for (const asked of signer.asked) asked.give('c2ln');
      await eventually(() => expect(held).toHaveLength(2));
      await settle();
      // both slots hold a request waiting for its answer: the third delivery is not signed yet
      expect(signer.asked.map((asked) => asked.messageId)).toEqual(['message-1', 'message-2']);
      held[0]?.writeHead(200, { 'content-length': '0' }).end();
      await eventually(() => expect(signer.asked).toHaveLength(3));
      expect(signer.asked[2]?.messageId).toBe('message-3');
      signer.asked[2]?.give('c2ln');
      await eventually(() => expect(held).toHaveLength(3));
      for (const res of held.slice(1)) res.writeHead(200, { 'content-length': '0' }).end();
    } finally {
      await deliverer.stop();
      await testStore.close();
      await webhook.close();
    }
  });

  test('when the deliverer stops while a signature is under way, then stop waits for it and the delivery is not sent', async () => {
    const webhook = await startWebhook((_req, res) => res.writeHead(200, { 'content-length': '0' }).end());
    const signer = createHeldSigner();
    const { deliverer, repo, testStore, due } = await startDeliverer(signer, webhook.url);
    try {
      const item = due(1);
      await eventually(() => expect(signer.asked).toHaveLength(1));
      let isStopped = false;
      const stopped = deliverer.stop().then(() => {
        isStopped = true;
      });
      await settle();
      expect(isStopped).toBe(false);
      signer.asked[0]?.give('c2ln');
      await stopped;
      expect(webhook.requests()).toBe(0);
      expect(repo.deliveries.byId(item._id)).toMatchObject({ state: 'pending', attempts: [] });
    } finally {
      await testStore.close();
      await webhook.close();
    }
  });
});
