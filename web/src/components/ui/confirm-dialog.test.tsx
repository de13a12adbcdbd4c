import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

function Asking({ onConfirm = jest.fn(), onCancel = jest.fn() }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Unlink Account
      </button>
      {isOpen && (
        <ConfirmDialog
          title="Unlink Kick account"
          message="The bot leaves @streamer's chat."
          confirmLabel="Unlink"
          onConfirm={onConfirm}
          onCancel={() => {
            onCancel();
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

describe('ConfirmDialog', () => {
  test('when it opens, then it is a named alert dialog with its message and Cancel has the focus', async () => {
    const user = userEvent.setup();
    render(<Asking />);
    await user.click(screen.getByRole('button', { name: 'Unlink Account' }));

    const dialog = screen.getByRole('alertdialog', { name: 'Unlink Kick account' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAccessibleDescription("The bot leaves @streamer's chat.");
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });

  test('when Escape is pressed, then it cancels and the focus returns to the button that opened it', async () => {
    const onCancel = jest.fn();
    const onConfirm = jest.fn();
    const user = userEvent.setup();
    render(<Asking onCancel={onCancel} onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Unlink Account' }));

    await user.keyboard('{Escape}');

    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Unlink Account' })).toHaveFocus();
  });

  test('when Tab passes the last button, then the focus wraps to the first (and back with Shift+Tab)', async () => {
    const user = userEvent.setup();
    render(<Asking />);
    await user.click(screen.getByRole('button', { name: 'Unlink Account' }));

    await user.tab();
    expect(screen.getByRole('button', { name: 'Unlink' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Unlink' })).toHaveFocus();
  });

  test('when the action is confirmed, then onConfirm runs once', async () => {
    const onConfirm = jest.fn();
    const user = userEvent.setup();
    render(<Asking onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Unlink Account' }));
    await user.click(screen.getByRole('button', { name: 'Unlink' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
