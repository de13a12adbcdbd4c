import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { captureLog } from '../testing';
import { createHttpApp } from './create-http-app';

/** The request log line of every request, except the high-volume webhook door's successes. */
describe('the request log', () => {
  const captured = captureLog('info');
  let url = '';
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const router = Router();
    router.post('/api/kick/webhook', (req, res) => {
      if (req.headers['x-boom']) throw new Error('boom');
      res.status(req.headers['x-bad'] ? 401 : 200).json({ success: true, requestId: req.id });
    });
    router.get('/search', (_req, res) => {
      res.json({ success: true });
    });
    const app = createHttpApp({ service: 'test', log: captured.log, routes: [router], readiness: [] });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  const logged = (requestId: string) =>
    captured.records().filter((line) => line.requestId === requestId && line.msg === 'request completed');

  test('when a Kick delivery succeeds, then no request line is written; when it is refused, then one is', async () => {
    await fetch(`${url}/api/kick/webhook`, { method: 'POST', headers: { 'x-request-id': 'ok-delivery' } });
    await fetch(`${url}/api/kick/webhook`, {
      method: 'POST',
      headers: { 'x-request-id': 'bad-delivery', 'x-bad': '1' },
    });
    await fetch(`${url}/search`, { headers: { 'x-request-id': 'a-search' } });
    expect(logged('ok-delivery')).toHaveLength(0);
    expect(logged('bad-delivery')).toEqual([
      expect.objectContaining({ level: 30, res: expect.objectContaining({ statusCode: 401 }) }),
    ]);
    expect(logged('a-search')).toHaveLength(1);
  });

  test('when a Kick delivery is handled quietly, then it still has its request id, and a failure is logged with it', async () => {
    const answer = await fetch(`${url}/api/kick/webhook`, { method: 'POST', headers: { 'x-request-id': 'quiet-1' } });
    expect(answer.headers.get('x-request-id')).toBe('quiet-1');
    expect(await answer.json()).toEqual({ success: true, requestId: 'quiet-1' });
    const failed = await fetch(`${url}/api/kick/webhook`, {
      method: 'POST',
      headers: { 'x-request-id': 'quiet-boom', 'x-boom': '1' },
    });
    expect(failed.status).toBe(500);
    expect(
      captured
        .records()
        .filter((line) => line.requestId === 'quiet-boom')
        .map((line) => [line.level, line.msg]),
    ).toEqual([
      [50, 'request failed'],
      [30, 'request completed'],
    ]);
  });
});

describe('the request log of a service with quiet paths of its own', () => {
  const captured = captureLog('info');
  let url = '';
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const router = Router();
    router.post('/public/v1/chat', (req, res) => {
      res.status(req.headers['x-bad'] ? 429 : 200).json({ message: 'OK' });
    });
    const app = createHttpApp({
      service: 'test',
      log: captured.log,
      routes: [router],
      readiness: [],
      quietPaths: ['/public/v1/chat'],
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  test('when one of its quiet paths succeeds, then no request line is written; when it fails, then one is', async () => {
    const ok = await fetch(`${url}/public/v1/chat`, { method: 'POST', headers: { 'x-request-id': 'chat-ok' } });
    await fetch(`${url}/public/v1/chat`, { method: 'POST', headers: { 'x-request-id': 'chat-bad', 'x-bad': '1' } });
    const lines = (requestId: string) =>
      captured.records().filter((line) => line.requestId === requestId && line.msg === 'request completed');
    expect(ok.headers.get('x-request-id')).toBe('chat-ok');
    expect(lines('chat-ok')).toHaveLength(0);
    expect(lines('chat-bad')).toEqual([
      expect.objectContaining({ level: 30, res: expect.objectContaining({ statusCode: 429 }) }),
    ]);
  });
});
