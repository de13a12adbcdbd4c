import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

export interface ConfirmDialogProps {
  title: string;
  /** What will happen, naming what it touches. */
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  isBusy?: boolean;
}

/**
 * The one confirmation before a destructive action: a native modal `<dialog>` (the page behind is
 * inert), Tab kept inside, Escape or Cancel cancels, Cancel has the focus first, and the focus goes
 * back where it was when it closes. Mount it to ask; unmount it to close.
 */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel, isBusy }: ConfirmDialogProps) {
  const ids = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const onCancelRef = useRef(onCancel);
  useLayoutEffect(() => {
    onCancelRef.current = onCancel;
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom has no showModal: the open attribute is the same dialog without the top layer
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    cancelRef.current?.focus();
    // Escape makes the browser fire cancel and close the dialog itself: React decides instead
    const onNativeCancel = (event: Event) => {
      event.preventDefault();
      onCancelRef.current();
    };
    dialog.addEventListener('cancel', onNativeCancel);
    return () => {
      dialog.removeEventListener('cancel', onNativeCancel);
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      if (previous && document.contains(previous)) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // the native cancel event covers browsers; this covers environments without it
      event.preventDefault();
      onCancel();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(focusableSelector));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialogRef}
      className="modal modal-small confirm-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-message`}
      onKeyDown={onKeyDown}
    >
      <h2 id={`${ids}-title`} className="modal-title">
        {title}
      </h2>
      <div id={`${ids}-message`} className="confirm-message">
        {message}
      </div>
      <div className="modal-actions">
        <button ref={cancelRef} type="button" className="button button-outline" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={isBusy}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
