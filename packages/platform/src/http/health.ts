import { Router } from 'express';

export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; throws otherwise. */
  check(): Promise<void>;
}

const checkTimeoutMs = 2000;

/** When this process started (ISO): probes derive the service's uptime from it. */
export const processStartedAt = new Date(performance.timeOrigin).toISOString();

async function runCheck({ name, check }: ReadinessCheck): Promise<[string, 'up' | 'down']> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
  });
  try {
    await Promise.race([check(), timeout]);
    return [name, 'up'];
  } catch {
    return [name, 'down'];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /healthz: the process answers (liveness). /readyz: the store and the bus answer too (readiness).
 * /readyz carries `startedAt`, the process start time, so the gateway's /api/health can report uptimes.
 */
export function healthRoutes(service: string, checks: readonly ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { service, status: 'alive' } });
  });
  router.get('/readyz', async (_req, res) => {
    const results = Object.fromEntries(await Promise.all(checks.map(runCheck)));
    const down = Object.keys(results).filter((name) => results[name] === 'down');
    if (down.length === 0) {
      res.json({ success: true, data: { service, status: 'ready', checks: results, startedAt: processStartedAt } });
    } else {
      res.status(503).json({
        success: false,
        error: `Not ready: ${down.join(', ')} unreachable`,
        data: { service, status: 'not-ready', checks: results, startedAt: processStartedAt },
      });
    }
  });
  return router;
}
