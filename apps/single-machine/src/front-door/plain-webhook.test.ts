import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import {
  createKickWebhookDoor,
  createWebhookVerifier,
  kickWebhookRoutes,
  type IntakeAnswer,
  type RefusalReason,
  type VerifiedDelivery,
  type WebhookDeps,
  type WebhookIntake,
} from '@kickstand/kick-link/front-door';
import { captureLog, createFakeClock, eventually, listenLocally, type LocalServer } from '@kickstand/platform/testing';
import { createPlainWebhookHandler } from './plain-webhook';
import { aKickKey } from './testing/door-fakes';

const kickKey = aKickKey();
const clock = createFakeClock(new Date('2026-03-01T12:00:00.000Z'));
const body = JSON.stringify({ message_id: 'm-1', broadcaster: { user_id: 42 }, content: 'hello' });
const limit = 1024;

/** An intake that records what reaches it and answers `state.answer`. */
function aRecordingIntake() {
  const accepted: VerifiedDelivery[] = [];
  const refused: { reason: RefusalReason; signedBody: string | undefined }[] = [];
  const state: { answer: IntakeAnswer } = { answer: 'kept' };
  const intake: WebhookIntake = {
    refused: (reason, signedBody) => void refused.push({ reason, signedBody: signedBody?.toString('utf8') }),
    accept: async (delivery) => {
      accepted.push(delivery);
      return state.answer;
    },
  };
  return { intake, accepted, refused, state };
}

type Door = ReturnType<typeof aRecordingIntake> & { server: LocalServer; http: Server };

/** Both ways of serving the route, each with its own recording intake and the same request id. */
async function aDoor(way: 'express' | 'plain'): Promise<Door> {
  const recording = aRecordingIntake();
  const deps: WebhookDeps = {
    verifier: createWebhookVerifier({
      kick: { publicKey: async () => kickKey.publicPem },
      clock,
      log: captureLog('info').log,
      toleranceSeconds: 300,
      refetchIntervalMs: 60_000,
    }),
    intake: recording.intake,
    clock,
    log: captureLog('info').log,
    bodyLimit: '1kb',
  };
  // as kick-link mounts it (service.ts), and as the front door did before it had the plain route
  const app = express();
  app.disable('x-powered-by');
  app.use(kickWebhookRoutes(deps));
  const viaExpress = (req: IncomingMessage, res: ServerResponse) => void app(req, res);
  const handler =
    way === 'express'
      ? viaExpress
      : createPlainWebhookHandler({ door: createKickWebhookDoor(deps), clock, log: deps.log, viaExpress });
  const server = createServer((req, res) => {
    res.setHeader('x-request-id', 'req-1');
    handler(req, res);
  });
  return { ...recording, server: await listenLocally(server), http: server };
}

/** Writes the request's bytes as given (in pieces, `Connection: close`), returns the answer's bytes, Date left out. */
function exchange(port: number, pieces: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const answer: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      socket.end();
      resolve(
        Buffer.concat(answer)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/, ''),
      );
    });
    void (async () => {
      for (const piece of pieces) {
        await new Promise<void>((done) => socket.write(piece, () => done()));
      }
    })();
  });
}

function head(headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST /api/kick/webhook HTTP/1.1\r\nHost: kickstand\r\nConnection: close\r\n${lines.join('')}\r\n`;
}

const signed = (messageId: string, payload: string, at = clock.now()) => kickKey.signed(messageId, at, payload);
const withLength = (headers: Record<string, string>, payload: string | Buffer) => ({
  ...headers,
  'content-length': Buffer.byteLength(payload),
});
const chunked = (headers: Record<string, string>) => ({ ...headers, 'transfer-encoding': 'chunked' });
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

const ok = [
  'HTTP/1.1 200 OK',
  'x-request-id: req-1',
  'Content-Type: application/json; charset=utf-8',
  'Content-Length: 16',
  'ETag: W/"10-oV4hJxRVSENxc/wX8+mA4/Pe4tA"',
  'Connection: close',
  '',
  '{"success":true}',
].join('\r\n');
const unauthorized = [
  'HTTP/1.1 401 Unauthorized',
  'x-request-id: req-1',
  'Content-Type: application/json; charset=utf-8',
  'Content-Length: 53',
  'ETag: W/"35-nAqXuTO81wMEYNZC5mfZrbvNLLU"',
  'Connection: close',
  '',
  '{"success":false,"error":"Invalid webhook signature"}',
].join('\r\n');
const tooLarge = [
  'HTTP/1.1 413 Payload Too Large',
  'x-request-id: req-1',
  'Content-Type: application/json; charset=utf-8',
  'Content-Length: 53',
  'ETag: W/"35-Yo40VTJbwxeak4EDiNmV3tOVAA4"',
  'Connection: close',
  '',
  '{"success":false,"error":"Request body is too large"}',
].join('\r\n');

describe("the front door's plain webhook route, against kick-link's Express route", () => {
  let plain: Door;
  let viaExpress: Door;

  beforeEach(async () => {
    plain = await aDoor('plain');
    viaExpress = await aDoor('express');
  });
  afterEach(async () => {
    await plain.server.close();
    await viaExpress.server.close();
  });

  /** Sends the same bytes to both; each answer, and what reached each intake. */
  async function both(pieces: (string | Buffer)[]) {
    const answers = {
      plain: await exchange(plain.server.port, pieces),
      express: await exchange(viaExpress.server.port, pieces),
    };
    const seen = (door: Door) => ({
      accepted: door.accepted.map((delivery) => ({
        messageId: delivery.headers.messageId,
        rawBody: delivery.rawBody.toString('latin1'),
        sentAt: delivery.sentAt.toISOString(),
        receivedAt: delivery.receivedAt.toISOString(),
      })),
      refused: door.refused,
    });
    return { answers, seen: { plain: seen(plain), express: seen(viaExpress) } };
  }

  test('when a correctly signed delivery arrives, then both answer 200 with the same bytes and the intake gets its exact bytes', async () => {
    const { answers, seen } = await both([head(withLength(signed('k-1', body), body)), body]);

    expect(answers.plain).toBe(ok);
    expect(answers.express).toBe(ok);
    expect(seen.plain).toEqual({
      accepted: [
        { messageId: 'k-1', rawBody: body, sentAt: '2026-03-01T12:00:00.000Z', receivedAt: '2026-03-01T12:00:00.000Z' },
      ],
      refused: [],
    });
    expect(seen.express).toEqual(seen.plain);
  });

  test('when the body comes chunked in pieces with a Content-Type that is not JSON, then 200 and the intake gets the pieces joined, byte for byte', async () => {
    const payload = `${body.slice(0, 10)}é${body.slice(10)}`;
    const headers = { ...chunked(signed('k-2', payload)), 'content-type': 'text/plain' };
    const [first, second] = [Buffer.from(payload).subarray(0, 11), Buffer.from(payload).subarray(11)];

    const { answers, seen } = await both([
      head(headers),
      Buffer.concat([Buffer.from(`${first.length.toString(16)}\r\n`), first, Buffer.from('\r\n')]),
      Buffer.concat([Buffer.from(`${second.length.toString(16)}\r\n`), second, Buffer.from('\r\n')]),
      '0\r\n\r\n',
    ]);

    expect(answers.plain).toBe(ok);
    expect(answers.express).toBe(ok);
    expect(seen.plain.accepted.map((delivery) => Buffer.from(delivery.rawBody, 'latin1').toString('utf8'))).toEqual([
      payload,
    ]);
    expect(seen.express).toEqual(seen.plain);
  });

  test('when the body is exactly the limit, then it is read and checked (200)', async () => {
    const payload = JSON.stringify({ content: 'x'.repeat(limit - 14) });
    expect(Buffer.byteLength(payload)).toBe(limit);

    const { answers, seen } = await both([head(withLength(signed('k-3', payload), payload)), payload]);

    expect(answers.plain).toBe(ok);
    expect(answers.express).toBe(ok);
    expect(seen.plain.accepted).toHaveLength(1);
    expect(seen.express).toEqual(seen.plain);
  });

  test('when the Content-Length is one byte over the limit, then 413, a too-large refusal and nothing handed over', async () => {
    const payload = JSON.stringify({ content: 'x'.repeat(limit - 13) });

    const { answers, seen } = await both([head(withLength(signed('k-4', payload), payload)), payload]);

    expect(answers.plain).toBe(tooLarge);
    expect(answers.express).toBe(tooLarge);
    expect(seen.plain).toEqual({ accepted: [], refused: [{ reason: 'too-large', signedBody: undefined }] });
    expect(seen.express).toEqual(seen.plain);
  });

  test('when a chunked body grows over the limit, then 413 once the request has ended, one too-large refusal', async () => {
    const payload = 'y'.repeat(600);

    const { answers, seen } = await both([
      head(chunked(signed('k-5', payload + payload + payload))),
      chunk(payload),
      chunk(payload),
      chunk(payload),
      '0\r\n\r\n',
    ]);

    expect(answers.plain).toBe(tooLarge);
    expect(answers.express).toBe(tooLarge);
    expect(seen.plain).toEqual({ accepted: [], refused: [{ reason: 'too-large', signedBody: undefined }] });
    expect(seen.express).toEqual(seen.plain);
  });

  test('when the signature header is missing, then 401 and a bad-signature refusal', async () => {
    const headers: Record<string, string> = signed('k-6', body);
    delete headers['kick-event-signature'];

    const { answers, seen } = await both([head(withLength(headers, body)), body]);

    expect(answers.plain).toBe(unauthorized);
    expect(answers.express).toBe(unauthorized);
    expect(seen.plain).toEqual({ accepted: [], refused: [{ reason: 'bad-signature', signedBody: undefined }] });
    expect(seen.express).toEqual(seen.plain);
  });

  test('when the signature does not verify, then 401 and a bad-signature refusal', async () => {
    const headers = { ...signed('k-7', body), 'kick-event-message-id': 'k-forged' };

    const { answers, seen } = await both([head(withLength(headers, body)), body]);

    expect(answers.plain).toBe(unauthorized);
    expect(answers.express).toBe(unauthorized);
    expect(seen.plain).toEqual({ accepted: [], refused: [{ reason: 'bad-signature', signedBody: undefined }] });
    expect(seen.express).toEqual(seen.plain);
  });

  test('when a correctly signed delivery is 6 minutes old, then 401 and the refusal carries its body', async () => {
    const sixMinutesAgo = new Date(clock.now().getTime() - 6 * 60_000);

    const { answers, seen } = await both([head(withLength(signed('k-8', body, sixMinutesAgo), body)), body]);

    expect(answers.plain).toBe(unauthorized);
    expect(answers.express).toBe(unauthorized);
    expect(seen.plain).toEqual({ accepted: [], refused: [{ reason: 'stale-timestamp', signedBody: body }] });
    expect(seen.express).toEqual(seen.plain);
  });

  test('when the intake cannot keep it, then 503 with Retry-After, the same bytes both ways', async () => {
    plain.state.answer = 'unavailable';
    viaExpress.state.answer = 'unavailable';

    const { answers } = await both([head(withLength(signed('k-9', body), body)), body]);

    expect(answers.plain).toBe(
      [
        'HTTP/1.1 503 Service Unavailable',
        'x-request-id: req-1',
        'Retry-After: 5',
        'Content-Type: application/json; charset=utf-8',
        'Content-Length: 77',
        'ETag: W/"4d-AwWK9O/2gklNJWBkocJLXEcAWl8"',
        'Connection: close',
        '',
        '{"success":false,"error":"The delivery could not be kept; try again shortly"}',
      ].join('\r\n'),
    );
    expect(answers.express).toBe(answers.plain);
  });

  test('when the body is gzip-encoded, then it goes the Express way: inflated, checked, 200', async () => {
    const zipped = gzipSync(body);
    const headers = { ...withLength(signed('k-10', body), zipped), 'content-encoding': 'gzip' };

    const { answers, seen } = await both([head(headers), zipped]);

    expect(answers.plain).toBe(ok);
    expect(seen.plain.accepted.map((delivery) => delivery.rawBody)).toEqual([body]);
    expect(seen.express).toEqual(seen.plain);
  });

  test('when the Content-Encoding is unknown, then 415 both ways', async () => {
    const headers = { ...withLength(signed('k-11', body), body), 'content-encoding': 'snappy' };

    const { answers, seen } = await both([head(headers), body]);

    expect(answers.plain).toMatch(/^HTTP\/1\.1 415 Unsupported Media Type\r\n/);
    expect(answers.plain).toMatch(/\r\n\r\n\{"success":false,"error":"Unsupported request body encoding"\}$/);
    expect(answers.express).toBe(answers.plain);
    expect(seen.plain).toEqual({ accepted: [], refused: [] });
  });

  test('when the client goes away in the middle of the body, then nothing is handed over and nothing is counted', async () => {
    const socket = connect(plain.server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(head(withLength(signed('k-12', body), body)) + body.slice(0, 10));
    await eventually(async () => expect(await connections(plain)).toBe(1));
    socket.destroy();
    await eventually(async () => expect(await connections(plain)).toBe(0));
    const after = await exchange(plain.server.port, [head(withLength(signed('k-13', body), body)), body]);

    expect(after).toBe(ok);
    expect(plain.accepted.map((delivery) => delivery.headers.messageId)).toEqual(['k-13']);
    expect(plain.refused).toEqual([]);
  });
});

/** The connections open on a door's server. */
function connections(door: Door): Promise<number> {
  return new Promise((resolve, reject) =>
    door.http.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}
