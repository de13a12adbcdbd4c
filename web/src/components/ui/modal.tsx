import { useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useModalDialog } from './use-modal-dialog';

export interface ModalProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** alertdialog for confirmations. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  /** Hide the × button (a confirmation has Cancel instead). */
  hasCloseButton?: boolean;
}

/**
 * A native modal `<dialog>`: asks to close on the × button, a click on the backdrop or Escape (see
 * useModalDialog for focus and Tab). Mount it to open; unmount it to close.
 */
export function Modal({ title, onClose, children, role = 'dialog', className, hasCloseButton = true }: ModalProps) {
  const titleId = useId();
  const { dialogRef, onKeyDown } = useModalDialog(onClose);

  // a portal keeps the <dialog> out of tables and forms it is opened from
  return createPortal(
    <dialog
      ref={dialogRef}
      className={`modal modal-dialog${className ? ` ${className}` : ''}`}
      data-testid="modal-backdrop"
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      onMouseDown={(event) => {
        // the content fills the dialog's box, so only a press on ::backdrop targets the dialog itself
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal-content">
        <div className="modal-header">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          {hasCloseButton && (
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
              ×
            </button>
          )}
        </div>
        {children}
      </div>
    </dialog>,
    document.body,
  );
}
