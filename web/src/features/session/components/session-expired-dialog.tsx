import { useAppDispatch } from '../../../app/hooks';
import { Modal } from '../../../components/ui/modal';
import { paths } from '../../../config/paths';
import { loggedOut } from '../../../lib/app-events';
import { browser } from '../../../lib/browser';
import { LoginForm } from './login-form';

/**
 * Over the page when the session expired: sign in again and carry on where you were (the calls
 * that met the expired session are sent again, forms keep what was typed), or sign out. Escape and
 * the backdrop do nothing: leaving this open would leave the page unable to save.
 */
export function SessionExpiredDialog() {
  const dispatch = useAppDispatch();
  const signOut = () => {
    dispatch(loggedOut());
    browser.goTo(paths.home.href());
  };

  return (
    <Modal title="Sign in again" onClose={() => undefined} hasCloseButton={false} className="login-modal">
      <p className="muted">Your session has expired. Sign in to carry on; nothing you typed is lost.</p>
      <LoginForm />
      <div className="modal-actions">
        <button type="button" className="button button-outline" onClick={signOut}>
          Sign out
        </button>
      </div>
    </Modal>
  );
}
