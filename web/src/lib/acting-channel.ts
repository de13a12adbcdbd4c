import { actingChannelHeader, isEditorRoute } from '@kickstand/api-contract';

/** The channel an editor works on (team access): its owner's user id and name. */
export interface ActingChannel {
  ownerUserId: string;
  ownerUsername: string;
}

const storageKey = 'kickstand.actingChannel';

/**
 * Which channel the dashboard's commands, timers and counters act for: the signed-in user's own
 * (null) or a channel they edit. Kept for the browser tab (session storage), so a reload stays on
 * it and another tab starts on the user's own channel.
 */
export const actingChannel = {
  get(): ActingChannel | null {
    try {
      const stored = window.sessionStorage.getItem(storageKey);
      if (!stored) return null;
      const parsed = JSON.parse(stored) as Partial<ActingChannel>;
      return typeof parsed.ownerUserId === 'string' && typeof parsed.ownerUsername === 'string'
        ? { ownerUserId: parsed.ownerUserId, ownerUsername: parsed.ownerUsername }
        : null;
    } catch {
      return null;
    }
  },
  set(channel: ActingChannel | null): void {
    if (channel) window.sessionStorage.setItem(storageKey, JSON.stringify(channel));
    else window.sessionStorage.removeItem(storageKey);
  },
};

/**
 * The `X-Kickstand-Channel` header for a call to `apiPath` (below /api): only on the routes an
 * editor may use (the contract's list), so the account, the Kick link and the rest stay the
 * user's own.
 */
export function actingChannelHeaders(apiPath: string): Record<string, string> {
  const channel = actingChannel.get();
  const path = `/api${apiPath.split('?')[0] ?? ''}`;
  return channel && isEditorRoute(path) ? { [actingChannelHeader]: channel.ownerUserId } : {};
}
