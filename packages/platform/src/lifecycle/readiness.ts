import type { ReadinessCheck } from '../http';
import type { PlatformDeps } from './connect-platform';

/** The checks behind /readyz for a service that uses the platform: its store and the bus answer. */
export function platformReadiness(deps: Pick<PlatformDeps, 'store' | 'bus'>): ReadinessCheck[] {
  return [
    { name: 'store', check: () => deps.store.ping() },
    { name: 'bus', check: () => deps.bus.ping() },
  ];
}
