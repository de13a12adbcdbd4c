import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/**
 * Opens a native `<dialog>` as modal while the component is mounted (the browser puts it in the top
 * layer, makes the page behind inert and draws `::backdrop`), and closes it on unmount. The parent
 * decides: Escape (the dialog's cancel) calls `onCancel` instead of closing by itself; the focus goes
 * to `[data-autofocus]` (else the first control) and back where it was afterwards; Tab wraps inside
 * (a modal dialog alone would let it reach the browser's own controls). Returns the ref and the
 * keydown handler to put on the `<dialog>`.
 */
export function useModalDialog(onCancel: () => void) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const onCancelRef = useRef(onCancel);
  useLayoutEffect(() => {
    onCancelRef.current = onCancel;
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    const first =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(focusableSelector);
    (first ?? dialog).focus();

    const onNativeCancel = (event: Event) => {
      event.preventDefault();
      onCancelRef.current();
    };
    // a browser may close the dialog anyway (Chrome does on a second Escape without a click between):
    // tell the parent, and keep it open while the parent still renders it
    const onNativeClose = () => {
      if (!dialog.isConnected) return; // removed by React on purpose
      onCancelRef.current();
      if (dialog.isConnected && !dialog.open) dialog.showModal();
    };
    dialog.addEventListener('cancel', onNativeCancel);
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('cancel', onNativeCancel);
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      if (previous && document.contains(previous)) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // taken here, the browser fires no cancel: one call on every browser (and in jsdom)
      event.preventDefault();
      event.stopPropagation();
      onCancelRef.current();
      return;
    }
    if (event.key !== 'Tab') return;
    const dialog = event.currentTarget;
    const focusable = Array.from(dialog.querySelectorAll<HTMLElement>(focusableSelector));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialog.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return { dialogRef, onKeyDown };
}
