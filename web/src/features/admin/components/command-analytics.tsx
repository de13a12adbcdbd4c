import { useId } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { analyticsDays, commandPrefix } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { useGetCommandUsageQuery } from '../admin-api';
import { CommandUsageChart } from './command-usage-chart';
import { LoadError } from './load-error';

/** /admin/analytics: real command usage over the last 14 days, for all streamers. */
export function CommandAnalytics() {
  const ids = useId();
  const usage = useGetCommandUsageQuery({ days: analyticsDays }, { refetchOnMountOrArgChange: true });
  const total = usage.data?.days.reduce((sum, day) => sum + day.executions, 0) ?? 0;
  const most = Math.max(1, ...(usage.data?.topCommands.map((command) => command.executions) ?? []));

  return (
    <section className="admin-section" aria-labelledby={`${ids}-title`}>
      <div className="admin-section-header">
        <div>
          <h1 id={`${ids}-title`}>Analytics</h1>
          <p className="muted">Commands the bot answered in chat, across all streamers (days in UTC).</p>
        </div>
        <button
          type="button"
          className="button button-outline"
          onClick={() => usage.refetch()}
          disabled={usage.isFetching}
        >
          Refresh
        </button>
      </div>

      {usage.isLoading ? (
        <Spinner label="Loading analytics" />
      ) : usage.isError ? (
        <LoadError message={errorMessage(usage.error, 'Failed to load analytics')} onRetry={usage.refetch} />
      ) : (
        usage.data && (
          <div className="admin-columns admin-columns-wide">
            <div className="card">
              <h2 className="admin-card-title">Executions per day</h2>
              <p className="muted small" data-testid="usage-total">
                {total.toLocaleString()} executions in the last {usage.data.days.length} days
              </p>
              {usage.data.byKind && (
                <p className="muted small" data-testid="usage-by-kind">
                  Custom {usage.data.byKind.custom.toLocaleString()} · Built-in{' '}
                  {usage.data.byKind.builtIn.toLocaleString()} · Games {usage.data.byKind.game.toLocaleString()}
                </p>
              )}
              <CommandUsageChart days={usage.data.days} />
            </div>
            <div className="card">
              <h2 className="admin-card-title">Top commands</h2>
              {usage.data.topCommands.length === 0 ? (
                <p className="muted">No commands have run in the last {usage.data.days.length} days.</p>
              ) : (
                <ol className="top-commands">
                  {usage.data.topCommands.map((entry) => (
                    <li key={entry.command} data-testid="top-command">
                      <div className="top-command-line">
                        <span className="mono">
                          {commandPrefix}
                          {entry.command}
                        </span>
                        <span>{entry.executions.toLocaleString()}</span>
                      </div>
                      <div className="top-command-bar" aria-hidden="true">
                        <span style={{ width: `${(entry.executions / most) * 100}%` }} />
                      </div>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          </div>
        )
      )}
    </section>
  );
}
