import { Modal } from './modal';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  isBusy?: boolean;
}

/** Asks before something that cannot be undone; Cancel has the focus first. */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel, isBusy }: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={onCancel} role="alertdialog" hasCloseButton={false} className="modal-small">
      <p className="confirm-message">{message}</p>
      <div className="modal-actions">
        <button type="button" className="button button-outline" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={isBusy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
