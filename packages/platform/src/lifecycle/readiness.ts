import type { ReadinessCheck } from '../http';
import type { PlatformDeps } from './connect-platform';

/** An engine a service may need to do its job. */
export type ReadinessNeed = 'store' | 'bus';

/**
 * The checks behind /readyz: the engines this service needs to do its job (both unless told).
 * Readiness takes a pod out of its Service's endpoints, so a service that can work without an
 * engine must not list it: the gateway answers from memory and only proxies, so a MongoDB blip
 * must not answer 503 to every Kick webhook. Liveness (/healthz) never checks an engine.
 */
export function platformReadiness(
  deps: Pick<PlatformDeps, 'store' | 'bus'>,
  needs: readonly ReadinessNeed[] = ['store', 'bus'],
): ReadinessCheck[] {
  const checks: Record<ReadinessNeed, ReadinessCheck> = {
    store: { name: 'store', check: () => deps.store.ping() },
    bus: { name: 'bus', check: () => deps.bus.ping() },
  };
  return needs.map((need) => checks[need]);
}
