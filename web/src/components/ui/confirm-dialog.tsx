import { useId, type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog';

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
  const { dialogRef, onKeyDown } = useModalDialog(onCancel);

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
        <button type="button" data-autofocus className="button button-outline" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={isBusy}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
