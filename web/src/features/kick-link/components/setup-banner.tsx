import { useStartKickLink } from '../use-start-kick-link';

/** On the Setup tab while no Kick account is linked; a failed start is only logged here (spec §8). */
export function SetupBanner() {
  const { startLink, isLoading } = useStartKickLink({ isQuiet: true });
  return (
    <div className="banner banner-kick" role="note">
      <div>
        <strong>Link your Kick account</strong>
        <p className="muted">The bot needs your Kick channel before it can join the chat.</p>
      </div>
      <button type="button" className="button button-kick" onClick={startLink} disabled={isLoading}>
        {isLoading ? 'Redirecting…' : 'Link Kick Account'}
      </button>
    </div>
  );
}
