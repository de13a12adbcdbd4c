import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-error';
import { DeliveryHealthCard } from '../../delivery-health/components/delivery-health-card';
import { toastShown } from '../../../lib/app-events';
import { useGetKickStatusQuery, useUnlinkKickMutation } from '../kick-api';
import { useStartKickLink } from '../use-start-kick-link';

function formatDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

/** The Kick Account tab (spec §2): the linked account with Unlink, or a card to link one. */
export function KickAccountTab() {
  const dispatch = useAppDispatch();
  const { data: status, isLoading, isError } = useGetKickStatusQuery();
  const [unlink, { isLoading: isUnlinking }] = useUnlinkKickMutation();
  const { startLink, isLoading: isStarting } = useStartKickLink();
  const [isConfirming, setConfirming] = useState(false);

  useEffect(() => {
    if (isError) dispatch(toastShown({ type: 'error', message: 'Failed to check Kick account status' }));
  }, [isError, dispatch]);

  const unlinkAccount = async () => {
    setConfirming(false);
    try {
      await unlink().unwrap();
      dispatch(toastShown({ type: 'success', message: 'Kick account unlinked' }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Failed to unlink Kick account') }));
    }
  };

  if (isLoading) return <Spinner label="Checking your Kick account" />;

  const account = status?.hasKickAccount ? status.kickAccount : null;
  if (!account) {
    return (
      <div className="card kick-card kick-card-unlinked">
        <div className="kick-logo" aria-hidden="true">
          K
        </div>
        <h2>Link your Kick account</h2>
        <p className="muted">
          Connect the Kick channel the bot should join. You approve it on Kick; we never see your password.
        </p>
        <button type="button" className="button button-kick" onClick={startLink} disabled={isStarting}>
          {isStarting ? 'Redirecting…' : 'Link Kick Account'}
        </button>
      </div>
    );
  }

  return (
    <>
      <div className="card kick-card">
        <div className="kick-account">
          <div className="avatar-placeholder" aria-hidden="true">
            {account.kickUsername.slice(0, 1).toUpperCase()}
          </div>
          <div className="kick-account-details">
            <h2 className="kick-username">{account.kickUsername}</h2>
            {account.kickEmail && <p className="muted">{account.kickEmail}</p>}
            <p className="muted small">Linked on {formatDate(account.linkedAt)}</p>
          </div>
          <span className="status-pill status-on">
            <span className="dot" aria-hidden="true" />
            Account Linked
          </span>
        </div>
        <div className="actions-row">
          <button
            type="button"
            className="button button-danger"
            onClick={() => setConfirming(true)}
            disabled={isUnlinking}
          >
            {isUnlinking ? 'Unlinking…' : 'Unlink Account'}
          </button>
        </div>
      </div>
      <DeliveryHealthCard />
      {isConfirming && (
        <ConfirmDialog
          title="Unlink Kick account"
          message={`Unlink @${account.kickUsername}? The bot stops and leaves your chat until you link an account again.`}
          confirmLabel="Unlink"
          onCancel={() => setConfirming(false)}
          onConfirm={() => void unlinkAccount()}
        />
      )}
    </>
  );
}
