import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Icon } from '../../components/ui/icon';
import { kickErrorCountdownSeconds } from '../../config/constants';
import { paths } from '../../config/paths';
import { usePageTitle } from '../../lib/page-title';

/** /kick-error?type=duplicate|general&username=… : the link-failure screen (spec §2). */
export function KickErrorPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const type = params.get('type') || 'general';
  const username = params.get('username');
  const [secondsLeft, setSecondsLeft] = useState(kickErrorCountdownSeconds);
  const isDuplicate = type === 'duplicate';
  usePageTitle(isDuplicate ? 'Account Already Linked' : 'Linking Failed');

  useEffect(() => {
    if (secondsLeft <= 0) {
      navigate(paths.dashboard.href());
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, navigate]);

  return (
    <div className="center-screen">
      <main className="card card-narrow kick-error" aria-labelledby="kick-error-title">
        <Icon name="warning" size={44} className="kick-error-icon" />
        <h1 id="kick-error-title">{isDuplicate ? 'Account Already Linked' : 'Linking Failed'}</h1>
        {isDuplicate ? (
          <p>
            The Kick account <strong>@{username || 'Unknown'}</strong> is already connected to another user. Please use
            a different Kick account or contact support if this is your account.
          </p>
        ) : (
          <p>We could not link your Kick account. Please try again or contact support if the problem persists.</p>
        )}
        <p className="muted" aria-live="polite">
          Redirecting to the dashboard in {secondsLeft} second{secondsLeft === 1 ? '' : 's'}…
        </p>
        <div className="actions-row">
          <button type="button" className="button button-primary" onClick={() => navigate(paths.dashboard.href())}>
            Go to Dashboard
          </button>
          <button type="button" className="button button-outline" onClick={() => window.location.reload()}>
            Try Again
          </button>
        </div>
      </main>
    </div>
  );
}
