import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedUserIds } from '../seed';
import { startSandboxForTest, type SandboxHarness } from '../testing/sandbox-harness';

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
