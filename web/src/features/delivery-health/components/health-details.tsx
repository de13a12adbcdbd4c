import type { DeliveryHealth, RefusalReason, SenderKind } from '../health-api';
import { formatLag, formatWhen, refusalLabels, senderLabels } from '../format';

/** Everything known about one channel's connection to Kick, section by section. */
export function HealthDetails({ health }: { health: DeliveryHealth }) {
  const { subscriptions, deliveries, deadLetters, lastKickError, lastReplyFailure } = health;
  return (
    <dl className="health-details">
      <dt>Subscriptions</dt>
      <dd data-testid="health-subscriptions">
        {subscriptions ? (
          <>
            <span>Present: {subscriptions.present.length > 0 ? subscriptions.present.join(', ') : 'none'}</span>
            {subscriptions.missing.length > 0 && (
              <span className="health-bad">
                Missing: {subscriptions.missing.map((missing) => `${missing.event} (${missing.reason})`).join(', ')}
              </span>
            )}
            {subscriptions.lastRecreatedAt && (
              <span>
                Re-created {subscriptions.lastRecreatedEvents.join(', ')} at {formatWhen(subscriptions.lastRecreatedAt)}
              </span>
            )}
            {subscriptions.duplicatesRemoved > 0 && <span>Duplicates removed: {subscriptions.duplicatesRemoved}</span>}
            <span className="muted small">Checked at {formatWhen(subscriptions.checkedAt)}</span>
          </>
        ) : (
          <span className="muted">Not checked yet (checked every 10 minutes while the bot runs)</span>
        )}
      </dd>

      <dt>Last delivery</dt>
      <dd data-testid="health-last-delivery">
        {deliveries.lastReceivedAt ? (
          <>
            <span>
              {formatWhen(deliveries.lastReceivedAt)} · lag {formatLag(deliveries.lastLagMs)}
            </span>
            <span className="muted small">{deliveries.accepted} accepted</span>
          </>
        ) : (
          <span className="muted">Nothing received yet</span>
        )}
        {health.live && (
          <span className="muted small">
            {health.live.isLive ? 'Live' : 'Offline'} at {formatWhen(health.live.checkedAt)}
          </span>
        )}
      </dd>

      <dt>Refused deliveries</dt>
      <dd data-testid="health-refused">
        {(Object.keys(refusalLabels) as RefusalReason[])
          .map((reason) => `${refusalLabels[reason]}: ${health.refused[reason]}`)
          .join(' · ')}
      </dd>

      <dt>Dead letters</dt>
      <dd data-testid="health-dead-letters">
        {deadLetters.count}
        {deadLetters.lastAt && (
          <span className="muted small">
            last at {formatWhen(deadLetters.lastAt)}: {deadLetters.lastReason}
          </span>
        )}
      </dd>

      <dt>Replies</dt>
      <dd data-testid="health-replies">
        {(Object.keys(senderLabels) as SenderKind[]).map((sender) => (
          <span key={sender}>
            {senderLabels[sender]}: {health.replies[sender].sent} sent, {health.replies[sender].failed} failed,{' '}
            {health.replies[sender].dropped} dropped
          </span>
        ))}
        {lastReplyFailure && (
          <span className="health-bad">
            Last failure at {formatWhen(lastReplyFailure.at)}
            {lastReplyFailure.error ? `: ${lastReplyFailure.error}` : ''}
          </span>
        )}
      </dd>

      <dt>Last Kick error</dt>
      <dd data-testid="health-kick-error">
        {lastKickError ? (
          <span>
            {formatWhen(lastKickError.at)}: {lastKickError.message}
          </span>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
    </dl>
  );
}
