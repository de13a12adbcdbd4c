import type { KickstandBus, Subscription } from '@kickstand/platform/bus';
import type { DeactivatedUsers } from './deactivated-users';

/**
 * Every gateway instance must see every user.changed (each keeps its own in-memory list), so each
 * reads with a group of its own, as realtime does.
 */
export function subscribeUserChanges(
  bus: KickstandBus,
  instanceId: string,
  deactivatedUsers: DeactivatedUsers,
): Promise<Subscription> {
  return bus.subscribe('user.changed', `gateway.${instanceId}`, (change) => deactivatedUsers.apply(change));
}
