import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { toastShown } from '../../lib/app-events';
import { getSocket } from '../../lib/socket';
import type { BotErrorEvent } from '../../lib/socket-events';

/** bot-error events become error toasts with their message. */
export function useBotErrors(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const socket = getSocket();
    const onError = (error: BotErrorEvent) =>
      dispatch(toastShown({ type: 'error', message: error.message || 'The bot ran into an error' }));
    socket.on('bot-error', onError);
    return () => {
      socket.off('bot-error', onError);
    };
  }, [dispatch]);
}
