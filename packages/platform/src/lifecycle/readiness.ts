import type { ReadinessCheck } from '../http';
import type { PlatformDeps } from './connect-platform';

/**
 * The checks behind /readyz for a service that uses the platform: its store and the bus answer,
 * and every subscription receives (on Kafka, its consumer has joined its group: a restarted
 * process serves HTTP at once but is ready only once its consumers work).
 */
export function platformReadiness(deps: Pick<PlatformDeps, 'store' | 'bus'>): ReadinessCheck[] {
  return [
    { name: 'store', check: () => deps.store.ping() },
    { name: 'bus', check: () => deps.bus.ping() },
    { name: 'consumers', check: async () => assertConsuming(deps.bus) },
  ];
}

function assertConsuming(bus: Pick<PlatformDeps['bus'], 'joining'>): void {
  const joining = bus.joining();
  if (joining.length > 0) throw new Error(`Still joining: ${joining.join(', ')}`);
}
