import { useId, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-error';
import { LoadError } from '../../admin/components/load-error';
import { Pager } from '../../admin/components/pager';
import { failedReplies, formatLag, formatWhen, totalRefused } from '../format';
import { useGetDeliveryHealthListQuery, type DeliveryHealth } from '../health-api';
import { HealthStatus } from './delivery-health-card';
import { HealthDetails } from './health-details';

export const healthPageSize = 25;

function ChannelRow({ channel }: { channel: DeliveryHealth }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <tr data-testid="health-row">
        <td>
          <strong>{channel.kickUsername}</strong>
          <span className="muted small"> #{channel.broadcasterUserId}</span>
        </td>
        <td>
          <HealthStatus isHealthy={channel.isHealthy} problems={channel.problems} />
        </td>
        <td>{channel.isBotRunning ? 'Running' : 'Stopped'}</td>
        <td>
          {formatWhen(channel.deliveries.lastReceivedAt)}
          {channel.deliveries.lastReceivedAt && (
            <span className="muted small"> · {formatLag(channel.deliveries.lastLagMs)}</span>
          )}
        </td>
        <td>{channel.subscriptions?.missing.map((missing) => missing.event).join(', ') || '—'}</td>
        <td>{failedReplies(channel)}</td>
        <td>{channel.deadLetters.count}</td>
        <td>
          <button
            type="button"
            className="button button-small button-outline"
            aria-expanded={isOpen}
            onClick={() => setIsOpen((open) => !open)}
          >
            {isOpen ? 'Hide' : 'Details'}
          </button>
        </td>
      </tr>
      {isOpen && (
        <tr>
          <td colSpan={8}>
            <HealthDetails health={channel} />
          </td>
        </tr>
      )}
    </>
  );
}

/** The admin view of every linked channel's delivery health, with a filter for the unhealthy ones. */
export function DeliveryHealthOverview() {
  const ids = useId();
  const [page, setPage] = useState(1);
  const [unhealthyOnly, setUnhealthyOnly] = useState(false);
  const { data, isLoading, isFetching, isError, error, refetch } = useGetDeliveryHealthListQuery(
    { page, limit: healthPageSize, unhealthy: unhealthyOnly },
    { pollingInterval: 30_000 },
  );

  return (
    <section className="admin-section" aria-labelledby={`${ids}-title`}>
      <div className="admin-section-header">
        <div>
          <h2 id={`${ids}-title`}>Delivery health</h2>
          <p className="muted">How Kick&apos;s deliveries and the bots&apos; replies are doing, channel by channel.</p>
        </div>
        <label className="health-filter">
          <input
            type="checkbox"
            checked={unhealthyOnly}
            onChange={(changed) => {
              setUnhealthyOnly(changed.target.checked);
              setPage(1);
            }}
          />
          Unhealthy only
        </label>
      </div>

      {isLoading ? (
        <Spinner label="Loading delivery health" />
      ) : isError || !data ? (
        <LoadError message={errorMessage(error, 'Failed to load delivery health')} onRetry={refetch} />
      ) : (
        <>
          <p className="muted small" data-testid="health-unattributed">
            Not attributable to a channel: {totalRefused(data.unattributed.refused)} refused,{' '}
            {data.unattributed.deadLetters.count} dead letters
          </p>
          {data.channels.length === 0 ? (
            <div className="card empty-state">
              <p className="empty-title">{unhealthyOnly ? 'Every channel is healthy' : 'No linked channels'}</p>
            </div>
          ) : (
            <div className="table-scroll card">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Channel</th>
                    <th scope="col">Health</th>
                    <th scope="col">Bot</th>
                    <th scope="col">Last delivery</th>
                    <th scope="col">Missing subscriptions</th>
                    <th scope="col">Failed replies</th>
                    <th scope="col">Dead letters</th>
                    <th scope="col">
                      <span className="visually-hidden">Details</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.channels.map((channel) => (
                    <ChannelRow key={channel.broadcasterUserId} channel={channel} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager
            page={data.pagination.page}
            pages={data.pagination.pages}
            onPage={setPage}
            label="Delivery health pages"
            isDisabled={isFetching}
          />
        </>
      )}
    </section>
  );
}
