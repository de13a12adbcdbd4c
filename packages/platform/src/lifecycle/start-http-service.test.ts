import { Router } from 'express';
import { createHttpApp } from '../http';
import { createSilentLogger } from '../log';
import { eventually } from '../testing';
import { startHttpService, type Service } from './start-http-service';

/** A service whose start() ends when the test says so (a slow index build, a slow engine). */
function slowStartingService(): { service: Service; finishStart(): void; failStart(error: Error): void } {
  let finishStart = (): void => undefined;
  let failStart = (_error: Error): void => undefined;
  const started = new Promise<void>((resolve, reject) => {
    finishStart = resolve;
    failStart = reject;
  });
  const ping = Router().get('/api/ping', (_req, res) => void res.json({ success: true, data: 'pong' }));
  const service: Service = {
    app: createHttpApp({ service: 'slow', log: createSilentLogger(), routes: [ping], readiness: [] }),
    start: () => started,
    stop: async () => undefined,
  };
  return { service, finishStart, failStart };
}

async function get(port: number, url: string): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  const response = await fetch(`http://127.0.0.1:${port}${url}`);
  return { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') };
}

describe('startHttpService', () => {
  test('when the service is still starting, then /healthz answers and every other request gets 503 "Service is starting"', async () => {
    const { service, finishStart } = slowStartingService();
    let port = 0;
    const running = startHttpService(service, { port: 0, onListening: (listening) => (port = listening) });
    await eventually(() => expect(port).not.toBe(0));

    expect(await get(port, '/healthz')).toEqual({
      status: 200,
      body: { success: true, data: { service: 'slow', status: 'alive' } },
      retryAfter: null,
    });
    const starting = { status: 503, body: { success: false, error: 'Service is starting' }, retryAfter: '1' };
    expect(await get(port, '/readyz')).toEqual(starting);
    expect(await get(port, '/api/ping')).toEqual(starting);

    finishStart();
    const started = await running;
    expect(started.port).toBe(port);
    expect(await get(port, '/api/ping')).toEqual({
      status: 200,
      body: { success: true, data: 'pong' },
      retryAfter: null,
    });
    expect((await get(port, '/readyz')).status).toBe(200);
    await started.stop();
  });

  test('when the service fails to start, then the server is closed and the error is passed on', async () => {
    const { service, failStart } = slowStartingService();
    let port = 0;
    const running = startHttpService(service, { port: 0, onListening: (listening) => (port = listening) });
    failStart(new Error('store unreachable'));

    await expect(running).rejects.toThrow('store unreachable');
    expect(port).not.toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
