import { Router } from 'express';
import type { ServiceName } from '@kickstand/platform/config';

export interface ServiceHealth {
  name: ServiceName;
  status: 'up' | 'down';
  latencyMs: number;
  /** Seconds since the service's process started (its /readyz `startedAt`); null when it did not say. */
  uptimeSeconds: number | null;
}

const probeTimeoutMs = 1500;

/** The process start time a platform /readyz answer carries, if it is there and readable. */
function startedAtOf(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || !('data' in body)) return null;
  const data = (body as { data: unknown }).data;
  if (typeof data !== 'object' || data === null || !('startedAt' in data)) return null;
  const startedAt = (data as { startedAt: unknown }).startedAt;
  const ms = typeof startedAt === 'string' ? Date.parse(startedAt) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

async function probe(name: ServiceName, baseUrl: string): Promise<ServiceHealth> {
  const started = performance.now();
  let status: ServiceHealth['status'] = 'down';
  let latencyMs: number | undefined;
  let startedAt: number | null = null;
  try {
    // /readyz rather than /healthz: "up" should mean the service can also reach its store and the bus.
    const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(probeTimeoutMs) });
    latencyMs = Math.round(performance.now() - started);
    status = response.ok ? 'up' : 'down';
    startedAt = startedAtOf(await response.json().catch(() => undefined));
  } catch {
    status = 'down';
  }
  latencyMs ??= Math.round(performance.now() - started);
  const uptimeSeconds = startedAt === null ? null : Math.max(0, Math.floor((Date.now() - startedAt) / 1000));
  return { name, status, latencyMs, uptimeSeconds };
}

/** GET /api/health: each service's readiness and uptime, asked in parallel with a short timeout. */
export function healthRoute(upstreams: Record<ServiceName, string>): Router {
  const router = Router();
  router.get('/api/health', async (_req, res) => {
    const services = await Promise.all(
      (Object.entries(upstreams) as [ServiceName, string][]).map(([name, url]) => probe(name, url)),
    );
    const down = services.filter((service) => service.status === 'down').map((service) => service.name);
    const data = { status: down.length === 0 ? 'up' : 'degraded', services };
    if (down.length === 0) res.json({ success: true, data });
    else res.status(503).json({ success: false, error: `Services down: ${down.join(', ')}`, data });
  });
  return router;
}
