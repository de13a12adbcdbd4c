import { useAppDispatch } from '../../app/hooks';
import { toastDurations } from '../../config/constants';
import { errorMessage } from '../../lib/api-error';
import { toastShown } from '../../lib/app-events';
import { browser } from '../../lib/browser';
import { useLinkKickMutation } from './kick-api';

/**
 * Link Kick Account: asks for the authorization URL and sends the browser there. A failure is a
 * 6 s error toast, or (the Setup banner, spec §8) only logged.
 */
export function useStartKickLink({ isQuiet = false }: { isQuiet?: boolean } = {}) {
  const dispatch = useAppDispatch();
  const [linkKick, { isLoading }] = useLinkKickMutation();
  const startLink = async () => {
    try {
      const { authUrl } = await linkKick().unwrap();
      browser.goTo(authUrl);
    } catch (error) {
      const message = errorMessage(error, 'Failed to start Kick linking');
      if (isQuiet) console.warn(message);
      else dispatch(toastShown({ type: 'error', message, durationMs: toastDurations.linkErrorMs }));
    }
  };
  return { startLink, isLoading };
}
