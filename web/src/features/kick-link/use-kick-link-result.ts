import { useEffect, useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../app/hooks';
import { postLinkModalCloseDelayMs, postLinkReloadDelayMs, toastDurations } from '../../config/constants';
import { api } from '../../lib/api';
import { toastShown } from '../../lib/app-events';
import { browser } from '../../lib/browser';

export const kickLinkMessages = {
  linked: 'Kick account linked successfully!',
  duplicate: (username: string | null) =>
    `The Kick account @${username || 'Unknown'} is already linked to another user. Please use a different Kick account or contact support if this is your account.`,
  general: 'Failed to link your Kick account. Please try again or contact support if the problem persists.',
  denied: 'You cancelled linking on Kick, so nothing changed. Link your Kick account whenever you are ready.',
} as const;

const linkParams = ['kick_linked', 'kick_error', 'username'];

/**
 * What the OAuth callback reports in the dashboard's query (spec §4, §8): kick_linked=true refreshes
 * the session and, after 1 s, closes the welcome modal and reloads if the Kick tab is open;
 * kick_error=duplicate|general shows its toast; kick_error=denied (Deny on Kick's consent page) is
 * no failure, only a calm note (the bot card and the Setup banner offer the link again). The
 * parameters are removed either way.
 */
export function useKickLinkResult({ isKickTabActive, onLinked }: { isKickTabActive: boolean; onLinked: () => void }) {
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const handled = useRef<string | null>(null);
  const latest = useRef({ isKickTabActive, onLinked });
  useLayoutEffect(() => {
    latest.current = { isKickTabActive, onLinked };
  });

  const isLinked = params.get('kick_linked') === 'true';
  const kickError = params.get('kick_error');
  const username = params.get('username');

  useEffect(() => {
    if (!isLinked && !kickError) return;
    const key = `${isLinked}:${kickError}:${username}`;
    if (handled.current === key) return;
    handled.current = key;

    if (isLinked) {
      dispatch(api.util.invalidateTags(['Profile', 'KickStatus', 'BotStatus']));
      dispatch(toastShown({ type: 'success', message: kickLinkMessages.linked }));
      if (latest.current.isKickTabActive) setTimeout(() => browser.reload(), postLinkReloadDelayMs);
      setTimeout(() => latest.current.onLinked(), postLinkModalCloseDelayMs);
    } else if (kickError === 'duplicate') {
      dispatch(
        toastShown({
          type: 'error',
          message: kickLinkMessages.duplicate(username),
          durationMs: toastDurations.duplicateLinkMs,
        }),
      );
    } else if (kickError === 'denied') {
      dispatch(toastShown({ type: 'info', message: kickLinkMessages.denied, durationMs: toastDurations.linkErrorMs }));
    } else {
      dispatch(
        toastShown({ type: 'error', message: kickLinkMessages.general, durationMs: toastDurations.linkErrorMs }),
      );
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of linkParams) next.delete(name);
        return next;
      },
      { replace: true },
    );
    // the timers outlive the query clean-up (which re-renders): they are not cleared on it
  }, [dispatch, isLinked, kickError, username, setParams]);
}
