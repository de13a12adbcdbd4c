import { Link } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { recentActivityLimit } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { activityOf, type ActivityItem } from '../activity';
import { useGetAuditLogsQuery, useGetDashboardStatsQuery, useGetSystemHealthQuery } from '../admin-api';
import { formatDateTime } from '../format';
import { formatUptime, summariseHealth } from '../system-health';
import { LoadError } from './load-error';

/** How often the dashboard asks the services' health again while it is open. */
const healthPollMs = 30_000;

const quickActions = [
  { to: paths.admin.users.href(), title: 'Manage Users', text: 'Activate, deactivate and switch bots' },
  { to: paths.admin.webhooks.href(), title: 'Manage Webhooks', text: 'Kick event subscriptions per user' },
  { to: paths.admin.audit.href(), title: 'View Audit Logs', text: 'Every administrator action' },
  { to: paths.admin.analytics.href(), title: 'View Analytics', text: 'Command usage over 14 days' },
] as const;

/** /admin/dashboard: welcome banner, real figures, quick actions and recent activity (spec §2). */
export function AdminOverview({ username }: { username: string }) {
  // the layout asked for the figures a moment ago: fresh enough for 5 s
  const stats = useGetDashboardStatsQuery(undefined, { refetchOnMountOrArgChange: 5 });
  const health = useGetSystemHealthQuery(undefined, { refetchOnMountOrArgChange: true, pollingInterval: healthPollMs });
  const activity = useGetAuditLogsQuery({ page: 1, limit: recentActivityLimit }, { refetchOnMountOrArgChange: true });
  const summary = health.data ? summariseHealth(health.data.services) : null;

  return (
    <section className="admin-section" aria-labelledby="admin-welcome">
      <div className="admin-welcome card">
        <h1 id="admin-welcome">Welcome back, {username}</h1>
        <p className="muted">Here is how Kickstand is doing right now.</p>
      </div>

      {stats.isLoading ? (
        <Spinner label="Loading dashboard data" />
      ) : stats.isError ? (
        <LoadError message={errorMessage(stats.error, 'Failed to load dashboard data')} onRetry={stats.refetch} />
      ) : (
        stats.data && (
          <ul className="stat-grid" aria-label="Figures">
            <StatCard id="total-users" label="Total Users" value={stats.data.totalUsers} />
            <StatCard id="active-users" label="Active Users" value={stats.data.activeUsers} tone="success" />
            <StatCard
              id="inactive-users"
              label="Inactive Users"
              value={stats.data.inactiveUsers}
              tone={stats.data.inactiveUsers > 0 ? 'warning' : undefined}
            />
            <StatCard id="total-commands" label="Total Commands" value={stats.data.totalCommands} />
            <StatCard id="audit-logs" label="Audit Log Entries" value={stats.data.totalAuditLogs} />
            <StatCard
              id="system-health"
              label="System Health"
              value={
                summary ? (summary.health === 'healthy' ? 'Healthy' : 'Warning') : health.isError ? 'Unknown' : '…'
              }
              detail={summary ? `${summary.upCount} of ${summary.total} services up` : undefined}
              tone={summary?.health === 'healthy' ? 'success' : 'warning'}
            />
            <StatCard
              id="uptime"
              label="Uptime"
              value={summary?.uptimeSeconds != null ? formatUptime(summary.uptimeSeconds) : '—'}
              detail="since the last service start"
            />
          </ul>
        )
      )}

      <div className="admin-columns">
        <div className="card">
          <h2 className="admin-card-title">Quick Actions</h2>
          <ul className="quick-actions">
            {quickActions.map((action) => (
              <li key={action.to}>
                <Link className="quick-action" to={action.to}>
                  <span className="quick-action-title">{action.title}</span>
                  <span className="muted small">{action.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </div>

        <div className="card">
          <h2 className="admin-card-title">Recent Activity</h2>
          {activity.isLoading ? (
            <Spinner label="Loading recent activity" />
          ) : activity.isError ? (
            <LoadError message={errorMessage(activity.error, 'Failed to load dashboard data')} />
          ) : (activity.data?.logs.length ?? 0) === 0 ? (
            <p className="muted">No recent activity yet.</p>
          ) : (
            <ol className="activity-list">
              {activity.data?.logs.slice(0, recentActivityLimit).map((entry) => (
                <ActivityRow key={entry.id} item={activityOf(entry)} />
              ))}
            </ol>
          )}
        </div>
      </div>
    </section>
  );
}

function StatCard({
  id,
  label,
  value,
  detail,
  tone,
}: {
  id: string;
  label: string;
  value: number | string;
  detail?: string;
  tone?: 'success' | 'warning';
}) {
  return (
    <li className={`stat-card${tone ? ` stat-card-${tone}` : ''}`} data-testid={`stat-${id}`}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{typeof value === 'number' ? value.toLocaleString() : value}</span>
      {detail && <span className="muted small">{detail}</span>}
    </li>
  );
}

function ActivityRow({ item }: { item: ActivityItem }) {
  return (
    <li className="activity-item" data-testid="activity-item">
      <span className={`activity-dot activity-${item.status}`} aria-hidden="true" />
      <div>
        <div className="activity-title">
          {item.title} <span className="badge badge-muted">{item.type}</span>
        </div>
        <div className="muted small">{item.description}</div>
        <time className="muted small" dateTime={item.timestamp}>
          {formatDateTime(item.timestamp)}
        </time>
      </div>
    </li>
  );
}
