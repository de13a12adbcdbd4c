import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { pino } from 'pino';
import { createHttpApp } from '../http';
import { startMetricsServer } from './metrics-server';

describe('startMetricsServer', () => {
  test('when scraped after a request to an app, then the latency histogram names the route pattern, not the raw path', async () => {
    const router = Router();
    router.get('/search', (_req, res) => {
      res.json({ success: true });
    });
    const app = createHttpApp({ service: 'test', log: pino({ level: 'silent' }), routes: [router], readiness: [] });
    const server: Server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const metrics = await startMetricsServer({ port: 0, host: '127.0.0.1' });
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/search?page=3`);
      const response = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text).toContain(
        'kickstand_http_request_duration_seconds_count{service="test",method="GET",route="/search",status="200"}',
      );
      expect(text).toContain('kickstand_bus_messages_published_total');
      expect(text).not.toContain('page=3');
    } finally {
      await metrics.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('when anything but GET /metrics is asked, then 404', async () => {
    const metrics = await startMetricsServer({ port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics`, { method: 'POST' })).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics?x=1`)).status).toBe(200);
    } finally {
      await metrics.stop();
    }
  });
});
