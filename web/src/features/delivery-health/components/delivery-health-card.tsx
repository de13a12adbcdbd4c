import { useId } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-error';
import { useGetOwnDeliveryHealthQuery } from '../health-api';
import { HealthDetails } from './health-details';

/** How often the card asks again: kick-link stores what it sees every few seconds. */
export const healthPollMs = 30_000;

/** A healthy or unhealthy pill with the problems. */
export function HealthStatus({ isHealthy, problems }: { isHealthy: boolean; problems: string[] }) {
  return (
    <div className="health-status">
      <span className={`status-pill ${isHealthy ? 'status-on' : 'status-bad'}`}>
        <span className="dot" aria-hidden="true" />
        {isHealthy ? 'Healthy' : 'Unhealthy'}
      </span>
      {problems.length > 0 && (
        <ul className="health-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The streamer's "Delivery health" card: how Kick's deliveries and the bot's replies are doing. */
export function DeliveryHealthCard() {
  const titleId = useId();
  const { data, isLoading, isError, error, refetch } = useGetOwnDeliveryHealthQuery(undefined, {
    pollingInterval: healthPollMs,
  });

  return (
    <section className="card delivery-health-card" aria-labelledby={titleId}>
      <h2 id={titleId}>Delivery health</h2>
      {isLoading ? (
        <Spinner label="Loading delivery health" />
      ) : isError ? (
        <div role="alert">
          <p>{errorMessage(error, 'Failed to load delivery health')}</p>
          <button type="button" className="button button-small button-outline" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : data?.health ? (
        <>
          <HealthStatus isHealthy={data.health.isHealthy} problems={data.health.problems} />
          <HealthDetails health={data.health} />
        </>
      ) : (
        <p className="muted">Link your Kick account to see how its events reach the bot.</p>
      )}
    </section>
  );
}
