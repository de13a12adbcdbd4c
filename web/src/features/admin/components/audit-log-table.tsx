import { useId, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { auditLogPageSize } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { actionLabel, auditActions, detailsText } from '../activity';
import { useGetAuditLogsQuery } from '../admin-api';
import { formatDateTime } from '../format';
import { LoadError } from './load-error';
import { Pager } from './pager';

/** /admin/audit: the real audit log, newest first, a page at a time, filterable by action. */
export function AuditLogTable() {
  const ids = useId();
  const [action, setAction] = useState('');
  const [page, setPage] = useState(1);
  const logs = useGetAuditLogsQuery(
    { page, limit: auditLogPageSize, action: action || undefined },
    { refetchOnMountOrArgChange: true },
  );
  const pages = logs.data?.pagination.pages ?? 1;

  return (
    <section className="admin-section" aria-labelledby={`${ids}-title`}>
      <div className="admin-section-header">
        <div>
          <h1 id={`${ids}-title`}>Audit Logs</h1>
          <p className="muted">
            Every administrator action, newest first
            {logs.data ? ` (${logs.data.pagination.total.toLocaleString()} entries)` : ''}.
          </p>
        </div>
        <button
          type="button"
          className="button button-outline"
          onClick={() => logs.refetch()}
          disabled={logs.isFetching}
        >
          Refresh
        </button>
      </div>

      <div className="card admin-filters">
        <label className="field">
          <span className="field-label">Action</span>
          <select
            value={action}
            onChange={(event) => {
              setAction(event.target.value);
              setPage(1);
            }}
          >
            <option value="">All actions</option>
            {Object.entries(auditActions).map(([name, info]) => (
              <option key={name} value={name}>
                {info.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      {logs.isLoading ? (
        <Spinner label="Loading the audit log" />
      ) : logs.isError ? (
        <LoadError message={errorMessage(logs.error, 'Failed to load the audit log')} onRetry={logs.refetch} />
      ) : (logs.data?.logs.length ?? 0) === 0 ? (
        <div className="card empty-state">
          <p className="empty-title">No audit log entries found</p>
          <p className="muted">{action ? 'Try another action.' : 'Administrator actions will show here.'}</p>
        </div>
      ) : (
        <>
          <div className="table-scroll card">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Action</th>
                  <th scope="col">By</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {logs.data?.logs.map((entry) => (
                  <tr key={entry.id} data-testid="audit-row" data-action={entry.action}>
                    <td>
                      <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                    </td>
                    <td>
                      <span className="admin-action">{actionLabel(entry.action)}</span>
                      <div className="muted small mono">{entry.action}</div>
                    </td>
                    <td>{entry.actor.username || entry.actor.id}</td>
                    <td>{entry.target.username || entry.target.id}</td>
                    <td className="small admin-details">
                      {detailsText(entry.details) || <span className="muted">—</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Audit log pages" page={page} pages={pages} onPage={setPage} isDisabled={logs.isFetching} />
        </>
      )}
    </section>
  );
}
