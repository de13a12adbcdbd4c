import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { MessageChannel } from 'node:worker_threads';
import { captureLog, createFakeClock, eventually, listenLocally, type LocalServer } from '@kickstand/platform/testing';
import { startFrontDoor, type FrontDoor } from './front-door';
import type { FrontDoorOptions, OwnerMessage } from './messages';
import { serveWebhookHandOff } from './serve-hand-off';
import { aHold, aKickKey, aRecordingDoor } from './testing/door-fakes';

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
    const log = captureLog('info');
    const frontLog = captureLog('info');
    const owner = serveWebhookHandOff(channel.port2, recording.door, log.log);
    const options: FrontDoorOptions = {
      port: 0,
      host: '127.0.0.1',
      gatewayUrl: gateway.url,
      realtimeUrl: realtime.url,
      bodyLimit: '1kb',
      verification: { toleranceSeconds: 300, refetchIntervalMs: 60_000, fallbackPem: undefined },
      handOffTimeoutMs: 10_000,
      maxUnfinished: 100,
      ...overrides,
    };
    const front: FrontDoor = await startFrontDoor(options, channel.port1, frontLog.log, clock);
    // listening after the front door, so when it is told here, the front door has been told too
    const frontSawClose = new Promise((resolve) => channel.port1.once('close', resolve));
    let reported = 0;
    channel.port1.on('message', (message: OwnerMessage) => {
      if (message.kind === 'finished') reported += message.count;
    });
    const url = `http://127.0.0.1:${front.port}`;
    const deliver = (messageId: string) =>
      send(url, 'POST', '/api/kick/webhook', kickKey.signed(messageId, clock.now(), body), body);
    return {
      ...recording,
      owner,
      front,
      log,
      frontLog,
      url,
      deliver,
      frontSawClose,
      /** Until the front door has heard of `count` finished deliveries in all. */
      reportedFinished: (count: number) => eventually(() => expect(reported).toBe(count)),
    };
  }

  test('when a correctly signed delivery arrives, then Kick gets 200 before the owner has finished it, and the owner gets it once, with its exact bytes', async () => {
    const door = await aFrontDoor();
    const hold = aHold();
    door.state.finish = () => hold.promise;
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-1', clock.now(), body), body);
    await eventually(() => expect(door.accepted).toHaveLength(1));
    const finishedBeforeRelease = [...door.finished];
    hold.release();
    await door.reportedFinished(1);
    await door.front.close();

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ success: true });
    expect(finishedBeforeRelease).toEqual([]);
    expect(door.finished).toEqual(['k-1']);
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

  test('when as many deliveries as the bound are handed over and not finished, then the next is answered 503 with Retry-After; once the owner finishes them, then 200 again', async () => {
    const door = await aFrontDoor({ maxUnfinished: 2 });
    const hold = aHold();
    door.state.finish = () => hold.promise;
    const first = await door.deliver('k-5a');
    const second = await door.deliver('k-5b');
    const over = await door.deliver('k-5c');
    await eventually(() => expect(door.accepted).toHaveLength(2));
    hold.release();
    await door.reportedFinished(2);
    const after = await door.deliver('k-5d');
    await door.reportedFinished(3);
    await door.front.close();

    expect([first.status, second.status, over.status, after.status]).toEqual([200, 200, 503, 200]);
    expect(over.headers['retry-after']).toBe('5');
    expect(JSON.parse(over.text)).toEqual({
      success: false,
      error: 'The delivery could not be kept; try again shortly',
    });
    expect(door.finished).toEqual(['k-5a', 'k-5b', 'k-5d']);
    expect(
      door.frontLog.records().map(({ level, msg, unfinished, refused }) => ({ level, msg, unfinished, refused })),
    ).toEqual([
      {
        level: 40,
        msg: 'the owner thread is behind (FRONT_DOOR_MAX_UNFINISHED): webhook deliveries are answered 503 until it catches up',
        unfinished: 2,
        refused: undefined,
      },
      {
        level: 30,
        msg: 'the owner thread caught up: webhook deliveries are answered 200 again',
        unfinished: 0,
        refused: 1,
      },
    ]);
  });

  test('when Kick sends a delivery again after its 200, then it is answered 200 and handed over again (the claim in the owner drops it)', async () => {
    const door = await aFrontDoor();
    const answers = [await door.deliver('k-6'), await door.deliver('k-6')];
    await door.reportedFinished(2);
    await door.front.close();

    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(door.finished).toEqual(['k-6', 'k-6']);
  });

  test('when the owner is gone (its port closed), then a delivery is answered 503 with Retry-After', async () => {
    const door = await aFrontDoor();
    // the key is fetched once the first delivery comes: fetched here, while the owner still answers
    await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-7', clock.now(), body), body);
    await door.reportedFinished(1);
    door.owner.close();
    await door.frontSawClose;
    const answer = await send(door.url, 'POST', '/api/kick/webhook', kickKey.signed('k-8', clock.now(), body), body);
    await door.front.close();

    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(door.accepted.map((delivery) => delivery.headers.messageId)).toEqual(['k-7']);
  });

  test('when the owner fails on a delivery after its 200, then Kick still has its 200, the failure is logged and the delivery counts as finished', async () => {
    const door = await aFrontDoor({ maxUnfinished: 1 });
    door.state.finish = () => Promise.reject(new Error('dead letter not written'));
    const failed = await door.deliver('k-9');
    await door.reportedFinished(1);
    door.state.finish = async () => undefined;
    const next = await door.deliver('k-10');
    await door.reportedFinished(2);
    await door.front.close();

    expect([failed.status, next.status]).toEqual([200, 200]);
    expect(door.finished).toEqual(['k-10']);
    expect(door.log.records().map(({ msg, messageId }) => ({ msg, messageId }))).toEqual([
      { msg: 'webhook delivery failed', messageId: 'k-9' },
    ]);
  });

  test('when a delivery comes chunked in pieces, then the owner gets the pieces joined, byte for byte', async () => {
    const door = await aFrontDoor();
    const payload = `${body.slice(0, 20)}\u00e9\u{1F600}${body.slice(20)}`;
    const bytes = Buffer.from(payload);
    const answer = await new Promise<Answer>((resolve, reject) => {
      const outgoing = request(
        `${door.url}/api/kick/webhook`,
        { method: 'POST', headers: kickKey.signed('k-11', clock.now(), payload) },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      outgoing.on('error', reject);
      // split inside the multi-byte characters: the owner must get bytes, not decoded text
      outgoing.write(bytes.subarray(0, 21));
      outgoing.write(bytes.subarray(21, 24));
      outgoing.end(bytes.subarray(24));
    });
    await door.reportedFinished(1);
    await door.front.close();

    expect(answer.status).toBe(200);
    expect(door.accepted.map((delivery) => delivery.rawBody.equals(bytes))).toEqual([true]);
  });

  test.each([
    ['GET', undefined],
    ['PUT', '{}'],
  ])(
    'when %s asks for the webhook path, then it goes to the gateway, as any route but POST /api/kick/webhook',
    async (method, payload) => {
      const door = await aFrontDoor();
      const answer = await send(door.url, method, '/api/kick/webhook', { 'content-type': 'application/json' }, payload);
      await door.front.close();

      expect(answer.headers['x-upstream']).toBe('gateway');
      expect((JSON.parse(answer.text) as { method: string }).method).toBe(method);
      expect(door.refused).toEqual([]);
    },
  );

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
