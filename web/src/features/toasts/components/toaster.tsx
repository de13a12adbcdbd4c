import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { toastDurations } from '../../../config/constants';
import { selectToasts, toastClosed, toastRemoved, type Toast } from '../toasts-slice';

const icons: Record<Toast['type'], string> = { success: '✓', error: '✕', warning: '!', info: 'i' };

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (toast.isClosing) {
      const timer = setTimeout(() => dispatch(toastRemoved(toast.id)), toastDurations.closeAnimationMs);
      return () => clearTimeout(timer);
    }
    const timer = setTimeout(() => dispatch(toastClosed(toast.id)), toast.durationMs);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id, toast.isClosing, toast.durationMs]);

  const isUrgent = toast.type === 'error' || toast.type === 'warning';
  return (
    <div
      className={`toast toast-${toast.type}${toast.isClosing ? ' toast-closing' : ''}`}
      role={isUrgent ? 'alert' : 'status'}
      data-testid="toast"
    >
      <span className="toast-icon" aria-hidden="true">
        {icons[toast.type]}
      </span>
      <p className="toast-message">{toast.message}</p>
      <button
        type="button"
        className="toast-close"
        aria-label="Close notification"
        onClick={() => dispatch(toastClosed(toast.id))}
      >
        ×
      </button>
    </div>
  );
}

/**
 * The toasts, top-right below the top bar (spec §2), at most three. Each is announced by its own
 * role: errors and warnings as alerts, the rest as polite status messages.
 */
export function Toaster() {
  const toasts = useAppSelector(selectToasts);
  return createPortal(
    <div className="toaster" role="region" aria-label="Notifications">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>,
    document.body,
  );
}
