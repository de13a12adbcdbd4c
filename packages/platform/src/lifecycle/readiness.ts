import type { ReadinessCheck } from '../http';
import type { PlatformDeps } from './connect-platform';

/** An engine a service may need to do its job. */
export type ReadinessNeed = 'store' | 'bus';

/**
 * The checks behind /readyz: the engines this service needs to do its job (both unless told) and,
 * with the bus, that every subscription receives (on Kafka, its consumer has joined its group: a
 * restarted process serves HTTP at once but is ready only once its consumers work). Readiness takes
 * a pod out of its Service's endpoints, so a service that can work without an engine must not list
 * it: the gateway answers from memory and only proxies, so a MongoDB blip must not answer 503 to
 * every Kick webhook. Liveness (/healthz) never checks an engine.
 */
export function platformReadiness(
  deps: Pick<PlatformDeps, 'store' | 'bus'>,
  needs: readonly ReadinessNeed[] = ['store', 'bus'],
): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [];
  if (needs.includes('store')) checks.push({ name: 'store', check: () => deps.store.ping() });
  if (needs.includes('bus')) {
    checks.push({ name: 'bus', check: () => deps.bus.ping() });
    checks.push({ name: 'consumers', check: async () => assertConsuming(deps.bus) });
  }
  return checks;
}

function assertConsuming(bus: Pick<PlatformDeps['bus'], 'joining'>): void {
  const joining = bus.joining();
  if (joining.length > 0) throw new Error(`Still joining: ${joining.join(', ')}`);
}
