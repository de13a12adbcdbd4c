import { Router } from 'express';
import type { ServiceName } from '@kickstand/platform/config';

export interface ServiceHealth {
  name: ServiceName;
  status: 'up' | 'down';
  latencyMs: number;
}

const probeTimeoutMs = 1500;

async function probe(name: ServiceName, baseUrl: string): Promise<ServiceHealth> {
  const started = performance.now();
  let status: ServiceHealth['status'] = 'down';
  try {
    // /readyz rather than /healthz: "up" should mean the service can also reach its store and the bus.
    const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(probeTimeoutMs) });
    status = response.ok ? 'up' : 'down';
  } catch {
    status = 'down';
  }
  return { name, status, latencyMs: Math.round(performance.now() - started) };
}

/** GET /api/health: each service's readiness, asked in parallel with a short timeout. */
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
