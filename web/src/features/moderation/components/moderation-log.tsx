import { useAppDispatch } from '../../../app/hooks';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useGetModerationLogQuery, useUndoModerationMutation, type ModerationLogEntry } from '../moderation-api';

const actionText = (entry: ModerationLogEntry): string =>
  entry.action === 'timeout'
    ? `Timed out ${entry.timeoutMinutes ?? 0} min`
    : entry.action === 'ban'
      ? 'Banned'
      : 'Deleted';

const statusText: Record<ModerationLogEntry['status'], string> = {
  pending: 'sent to Kick',
  done: 'done',
  failed: 'failed',
  undone: 'undone',
};

/** What the filters did, newest first; a timeout or ban can be undone (unban on Kick). */
export function ModerationLogSection() {
  const dispatch = useAppDispatch();
  // the log fills while chat runs: read again every 5 s while the page is open
  const { data: entries = [], isLoading, isError } = useGetModerationLogQuery(undefined, { pollingInterval: 5000 });
  const [undo] = useUndoModerationMutation();

  const undoEntry = async (id: string) => {
    try {
      await undo(id).unwrap();
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'The action could not be undone.') }));
    }
  };

  return (
    <section className="moderation-log" aria-labelledby="moderation-log-heading">
      <h2 id="moderation-log-heading">Moderation log</h2>
      {isLoading ? (
        <p className="muted">Loading the log…</p>
      ) : isError ? (
        <p role="alert">The moderation log could not be loaded.</p>
      ) : entries.length === 0 ? (
        <p className="muted">Nothing caught yet.</p>
      ) : (
        <table className="moderation-log-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Viewer</th>
              <th scope="col">Message</th>
              <th scope="col">Filter</th>
              <th scope="col">Action</th>
              <th scope="col">
                <span className="visually-hidden">Undo</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-status={entry.status}>
                <td>{new Date(entry.at).toLocaleTimeString()}</td>
                <td>{entry.senderUsername}</td>
                <td className="moderation-log-content">{entry.content}</td>
                <td>{entry.filter}</td>
                <td>
                  {actionText(entry)} ({statusText[entry.status]}){entry.error !== '' && `: ${entry.error}`}
                </td>
                <td>
                  {entry.action !== 'delete' && entry.status !== 'undone' && (
                    <button type="button" className="button button-outline" onClick={() => void undoEntry(entry.id)}>
                      Undo
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
