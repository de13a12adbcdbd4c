import { useCallback, useEffect, useRef, useState } from 'react';

export const welcomeDismissedKey = 'welcomeModalDismissed';

function readDismissed(): boolean {
  try {
    return window.localStorage.getItem(welcomeDismissedKey) === 'true';
  } catch {
    return false;
  }
}

/**
 * The welcome modal's check (spec §2): it opens for a user without a linked Kick account. Closing
 * stores a dismissed flag; the next check honours it once and clears it again.
 * A check runs when the dashboard shows a user (checkKey: who, and whether they are linked).
 */
export function useWelcomeModal({ shouldOffer, checkKey }: { shouldOffer: boolean; checkKey: string | undefined }) {
  const [isOpen, setOpen] = useState(false);
  const checked = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (checkKey === undefined || checked.current === checkKey) return;
    checked.current = checkKey;
    const wasDismissed = readDismissed();
    window.localStorage.removeItem(welcomeDismissedKey);
    setOpen(shouldOffer && !wasDismissed);
  }, [checkKey, shouldOffer]);

  const close = useCallback(() => {
    window.localStorage.setItem(welcomeDismissedKey, 'true');
    setOpen(false);
  }, []);

  /** Closes without the flag (after a successful link). */
  const hide = useCallback(() => setOpen(false), []);

  return { isOpen, close, hide };
}
