import { instanceGroup, type KickstandBus, type Subscription } from '@kickstand/platform/bus';
import type { DeactivatedUsers } from './deactivated-users';

/**
 * Every gateway instance must see every user.changed (each keeps its own in-memory list), so each
 * reads with a group of its own instance, as realtime does.
 */
export function subscribeUserChanges(
  bus: KickstandBus,
  instanceId: string,
  deactivatedUsers: DeactivatedUsers,
): Promise<Subscription> {
  return bus.subscribe('user.changed', instanceGroup('gateway', instanceId), (change) =>
    deactivatedUsers.apply(change),
  );
}
