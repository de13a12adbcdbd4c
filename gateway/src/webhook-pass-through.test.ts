import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSilentLogger } from '@kickstand/platform/log';
import { createWebhookPassThrough, type WebhookPassThrough } from './webhook-pass-through';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('webhook pass-through', () => {
  let kickLink: Server;
  let gateway: Server;
  let passThrough: WebhookPassThrough;
  let base: string;
  let received: Received[];
  let fallThrough: string[];

  beforeEach(async () => {
    received = [];
    fallThrough = [];
    // kick-link's stand-in: records the request, answers like the door (with a header of its own)
    kickLink = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(401, { 'content-type': 'application/json', 'x-from': 'kick-link' });
        res.end('{"success":false,"error":"Invalid webhook signature"}');
      });
    });
    passThrough = createWebhookPassThrough(await listen(kickLink), createSilentLogger());
    gateway = createServer((req, res) => {
      if (passThrough.handle(req, res)) return;
      fallThrough.push(`${req.method} ${req.url}`);
      res.writeHead(204).end();
    });
    base = await listen(gateway);
  });

  afterEach(async () => {
    passThrough.close();
    await close(gateway);
    await close(kickLink);
  });

  test("when Kick posts a delivery, then kick-link gets the exact bytes and Kick's headers, and Kick gets kick-link's answer", async () => {
    const body = '{"message_id":"m1",  "content":"$hi ☃"}';
    const response = await fetch(`${base}/api/kick/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'kick-event-message-id': 'm1',
        'kick-event-signature': 'c2lnbmF0dXJl',
        'x-request-id': 'rid-7',
      },
      body,
    });

    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"success":false,"error":"Invalid webhook signature"}');
    expect(response.headers.get('x-from')).toBe('kick-link');
    expect(response.headers.get('x-request-id')).toBe('rid-7');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/kick/webhook', body });
    expect(received[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'kick-event-message-id': 'm1',
      'kick-event-signature': 'c2lnbmF0dXJl',
      'x-request-id': 'rid-7',
    });
  });

  test('when a delivery has no sane request id, then one is made, forwarded and answered', async () => {
    const response = await fetch(`${base}/api/kick/webhook`, {
      method: 'POST',
      headers: { 'x-request-id': 'not sane!' },
      body: '{}',
    });

    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(received[0]?.headers['x-request-id']).toBe(id);
  });

  test('when the caller writes X-Forwarded-* headers, then none reaches kick-link', async () => {
    await fetch(`${base}/api/kick/webhook`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' },
      body: '{}',
    });

    expect(received[0]?.headers['x-forwarded-for']).toBeUndefined();
    expect(received[0]?.headers['x-forwarded-proto']).toBeUndefined();
  });

  test('when a request is not a webhook delivery, then it is left to the app', async () => {
    await fetch(`${base}/api/kick/webhook`);
    await fetch(`${base}/api/kick/webhooks`, { method: 'POST', body: '{}' });
    await fetch(`${base}/api/platform/login`, { method: 'POST', body: '{}' });

    expect(fallThrough).toEqual(['GET /api/kick/webhook', 'POST /api/kick/webhooks', 'POST /api/platform/login']);
    expect(received).toEqual([]);
  });

  test("when the caller goes away before kick-link answers, then kick-link's request is dropped and no failure is logged", async () => {
    const warnings: string[] = [];
    const log = createSilentLogger();
    jest.spyOn(log, 'warn').mockImplementation(((_fields: unknown, message: string) => {
      warnings.push(message);
    }) as typeof log.warn);
    const silentKickLink = createServer(); // takes the request, never answers
    const upstreamClosed = new Promise<void>((resolve) =>
      silentKickLink.on('request', (req: IncomingMessage) => req.socket.on('close', () => resolve())),
    );
    const reached = new Promise<void>((resolve) => silentKickLink.on('request', () => resolve()));
    const abandoning = createWebhookPassThrough(await listen(silentKickLink), log);
    const front = createServer((req, res) => void abandoning.handle(req, res));
    const frontUrl = await listen(front);
    const caller = new AbortController();

    const call = fetch(`${frontUrl}/api/kick/webhook`, { method: 'POST', body: '{}', signal: caller.signal });
    await reached;
    caller.abort();

    await expect(call).rejects.toThrow();
    await upstreamClosed;
    expect(warnings).toEqual([]);
    abandoning.close();
    await close(front);
    await close(silentKickLink);
  });

  test('when kick-link cannot be reached, then 502 with the gateway error', async () => {
    await close(kickLink);

    const response = await fetch(`${base}/api/kick/webhook`, { method: 'POST', body: '{}' });

    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      success: false,
      error: 'The kick-link service is unavailable. Please try again shortly.',
    });
  });
});
