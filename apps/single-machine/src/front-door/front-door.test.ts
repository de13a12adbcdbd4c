import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { MessageChannel } from 'node:worker_threads';
import { createSilentLogger } from '@kickstand/platform/log';
import { createFakeClock, listenLocally, type LocalServer } from '@kickstand/platform/testing';
import { startFrontDoor, type FrontDoor } from './front-door';
import type { FrontDoorOptions } from './messages';
import { serveWebhookHandOff } from './serve-hand-off';
import { aKickKey, aRecordingDoor } from './testing/door-fakes';

const kickKey = aKickKey();
const clock = createFakeClock(new Date('2026-03-01T12:00:00.000Z'));
const body = JSON.stringify({ message_id: 'm-1', broadcaster: { user_id: 42 }, content: 'hello' });

/** Stand-ins for the owner thread's gateway and realtime: they answer with what reached them. */
function anEchoUpstream(name: string) {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(207, { 'content-type': 'application/json', 'x-upstream': name });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

function send(url: string, method: string, path: string, headers: Record<string, string>, payload?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(`${url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

describe('the front door (in this thread, its owner at the other end of a MessageChannel)', () => {
  let gateway: LocalServer;
  let realtime: LocalServer;

  beforeAll(async () => {
    gateway = await listenLocally(anEchoUpstream('gateway'));
    realtime = await listenLocally(anEchoUpstream('realtime'));
  });
  afterAll(async () => {
    await gateway.close();
    await realtime.close();
  });

  async function aFrontDoor(overrides: Partial<FrontDoorOptions> = {}) {
    const recording = aRecordingDoor(kickKey.publicPem);
    const channel = new MessageChannel();
    const owner = serveWebhookHandOff(channel.port2, recording.door, createSilentLogger());
    const options: FrontDoorOptions = {
      port: 0,
      host: '127.0.0.1',
      gatewayUrl: gateway.url,
      realtimeUrl: realtime.url,
      bodyLimit: '1kb',
      verification: { toleranceSeconds: 300, refetchIntervalMs: 60_000, fallbackPem: undefined },
      handOffTimeoutMs: 10_000,
      ...overrides,
    };
    const front: FrontDoor = await startFrontDoor(options, channel.port1, createSilentLogger(), clock);
    return { ...recording, owner, front, url: `http://127.0.0.1:${front.port}` };
  }

  test('when a correctly signed delivery arrives, then the owner gets it once, with its exact bytes, and Kick gets 200', async () => {
    const door = await aFrontDoor();
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-1', clock.now(), body), body);
    await door.front.close();

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ success: true });
    expect(door.accepted).toHaveLength(1);
    const [delivery] = door.accepted;
    expect(delivery?.rawBody.toString('utf8')).toBe(body);
    expect(delivery?.headers).toEqual({
      messageId: 'k-1',
      subscriptionId: 'sub-1',
      signature: kickKey.signed('k-1', clock.now(), body)['kick-event-signature'],
      timestamp: '2026-03-01T12:00:00.000Z',
      eventType: 'chat.message.sent',
      eventVersion: '1',
    });
    expect(delivery?.sentAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(delivery?.receivedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(door.refused).toEqual([]);
  });

  test('when the signature does not verify, then 401, nothing reaches the intake and a bad-signature refusal is counted', async () => {
    const door = await aFrontDoor();
    const headers = { ...kickKey.signed('k-2', clock.now(), body), 'kick-event-message-id': 'k-forged' };
    const answer = await send(door.url, 'POST', '/api/kick/webhook', headers, body);
    await door.front.close();

    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toEqual({ success: false, error: 'Invalid webhook signature' });
    expect(door.accepted).toEqual([]);
    expect(door.refused).toEqual([{ reason: 'bad-signature', signedBody: undefined }]);
  });

  test('when a correctly signed delivery is 6 minutes old, then 401 and the refusal carries its body (its channel)', async () => {
    const door = await aFrontDoor();
    const sixMinutesAgo = new Date(clock.now().getTime() - 6 * 60_000);
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-3', sixMinutesAgo, body), body);
    await door.front.close();

    expect(answer.status).toBe(401);
    expect(door.refused).toEqual([{ reason: 'stale-timestamp', signedBody: body }]);
  });

  test('when the body is over the limit, then 413 and a too-large refusal', async () => {
    const door = await aFrontDoor();
    const big = JSON.stringify({ content: 'x'.repeat(2000) });
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-4', clock.now(), big), big);
    await door.front.close();

    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({ success: false, error: 'Request body is too large' });
    expect(door.refused).toEqual([{ reason: 'too-large', signedBody: undefined }]);
  });

  test('when the owner cannot keep the delivery, then 503 with Retry-After', async () => {
    const door = await aFrontDoor();
    door.state.answer = async () => 'unavailable';
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-5', clock.now(), body), body);
    await door.front.close();

    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(JSON.parse(answer.text)).toEqual({
      success: false,
      error: 'The delivery could not be kept; try again shortly',
    });
  });

  test('when the owner does not answer within the hand-off time, then 503 with Retry-After', async () => {
    const door = await aFrontDoor({ handOffTimeoutMs: 20 });
    door.state.answer = () => new Promise(() => undefined);
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-6', clock.now(), body), body);
    await door.front.close();

    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(door.accepted).toHaveLength(1);
  });

  test('when the owner is gone (its port closed), then a delivery is answered 503', async () => {
    const door = await aFrontDoor();
    // the key is fetched once the first delivery comes: fetched here, while the owner still answers
    await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-7', clock.now(), body), body);
    door.owner.close();
    await new Promise((resolve) => setImmediate(resolve));
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-8', clock.now(), body), body);
    await door.front.close();

    expect(answer.status).toBe(503);
    expect(door.accepted.map((delivery) => delivery.headers.messageId)).toEqual(['k-7']);
  });

  test('when the owner throws, then 500 as the door in kick-link answers', async () => {
    const door = await aFrontDoor();
    door.state.answer = () => Promise.reject(new Error('dead letter not written'));
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-9', clock.now(), body), body);
    await door.front.close();

    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toEqual({ success: false, error: 'Internal server error' });
  });

  test('when a page or an API route is asked for, then it goes to the gateway with the client address appended to X-Forwarded-For', async () => {
    const door = await aFrontDoor();
    const answer = await send(
      door.url,
      'PUT',
      '/api/commands/c-1?x=1',
      { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7', 'x-request-id': 'req-1' },
      '{"a":1}',
    );
    await door.front.close();

    expect(answer.status).toBe(207);
    expect(answer.headers['x-upstream']).toBe('gateway');
    const seen = JSON.parse(answer.text) as { method: string; url: string; headers: IncomingHttpHeaders; body: string };
    expect({ method: seen.method, url: seen.url, body: seen.body }).toEqual({
      method: 'PUT',
      url: '/api/commands/c-1?x=1',
      body: '{"a":1}',
    });
    expect(seen.headers['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
    expect(seen.headers['x-request-id']).toBe('req-1');
  });

  test('when socket.io polls, then it goes to realtime directly', async () => {
    const door = await aFrontDoor();
    const answer = await send(door.url, 'GET', '/socket.io/?EIO=4&transport=polling', {});
    await door.front.close();

    expect(answer.headers['x-upstream']).toBe('realtime');
    expect((JSON.parse(answer.text) as { url: string }).url).toBe('/socket.io/?EIO=4&transport=polling');
  });

  test('when the gateway cannot be reached, then 502', async () => {
    const door = await aFrontDoor({ gatewayUrl: 'http://127.0.0.1:1' });
    const answer = await send(door.url, 'GET', '/api/health', {});
    await door.front.close();

    expect(answer.status).toBe(502);
  });
});
