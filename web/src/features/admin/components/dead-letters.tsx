import { useEffect, useId, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Spinner } from '../../../components/ui/spinner';
import { deadLetterPageSize } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import {
  useDiscardDeadLetterMutation,
  useGetDeadLettersQuery,
  useReplayDeadLetterMutation,
  type DeadLetter,
} from '../admin-api';
import { formatDateTime } from '../format';
import { LoadError } from './load-error';
import { Pager } from './pager';

export const deadLetterTexts = {
  loadFailed: 'Failed to load dead letters',
  replayFailed: 'Failed to replay the delivery',
  replayed: 'Delivery replayed',
  discardFailed: 'Failed to discard the dead letter',
  discarded: 'Dead letter discarded',
} as const;

/**
 * On /admin/webhooks, under the subscriptions: the deliveries Kick signed that the product could
 * not use (not JSON, no channel, an unknown type or version, a shape that still fails), newest
 * first, each with a Replay button (after a fix, the same processing as a fresh delivery) and a
 * Discard button.
 */
export function DeadLetters() {
  const ids = useId();
  const dispatch = useAppDispatch();
  const [page, setPage] = useState(1);
  const letters = useGetDeadLettersQuery({ page, limit: deadLetterPageSize }, { refetchOnMountOrArgChange: true });
  const [replay, replaying] = useReplayDeadLetterMutation();
  const [discard, discarding] = useDiscardDeadLetterMutation();
  const isBusy = replaying.isLoading || discarding.isLoading || letters.isFetching;
  const pages = letters.data?.pagination.pages ?? 1;
  // the last one of the last page went (replayed or discarded): one page back
  useEffect(() => {
    if (page > pages) setPage(Math.max(1, pages));
  }, [page, pages]);

  const run = async (call: () => Promise<{ message?: string }>, success: string, failure: string) => {
    try {
      const result = await call();
      dispatch(toastShown({ type: 'success', message: result.message ?? success }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, failure) }));
    }
  };

  return (
    <section className="admin-section" aria-labelledby={`${ids}-title`}>
      <div className="admin-section-header">
        <div>
          <h2 id={`${ids}-title`}>Dead letters</h2>
          <p className="muted">
            Deliveries Kick signed that could not be used, newest first
            {letters.data ? ` (${letters.data.pagination.total.toLocaleString()})` : ''}. Kept for 7 days.
          </p>
        </div>
        <button
          type="button"
          className="button button-outline"
          onClick={() => letters.refetch()}
          disabled={letters.isFetching}
        >
          Refresh
        </button>
      </div>

      {letters.isLoading ? (
        <Spinner label="Loading dead letters" />
      ) : letters.isError ? (
        <LoadError message={errorMessage(letters.error, deadLetterTexts.loadFailed)} onRetry={letters.refetch} />
      ) : (letters.data?.deadLetters.length ?? 0) === 0 ? (
        <div className="card empty-state">
          <p className="empty-title">No dead letters</p>
          <p className="muted">Every delivery Kick sent could be used.</p>
        </div>
      ) : (
        <>
          <div className="table-scroll card">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Type</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {letters.data?.deadLetters.map((letter) => (
                  <tr key={letter.id} data-testid="dead-letter-row" data-id={letter.id}>
                    <td>
                      <time dateTime={letter.receivedAt}>{formatDateTime(letter.receivedAt)}</time>
                    </td>
                    <td className="mono">
                      {letter.eventType}
                      {letter.eventVersion !== '1' && <span className="muted small"> v{letter.eventVersion}</span>}
                    </td>
                    <td className="mono">{letter.broadcasterUserId ?? <span className="muted">—</span>}</td>
                    <td className="small">
                      {letter.reason}
                      {letter.replayedAt && (
                        <div className="muted small">Replay failed {formatDateTime(letter.replayedAt)}</div>
                      )}
                      <DeliveryDetails letter={letter} />
                    </td>
                    <td>
                      <div className="dead-letter-actions">
                        <button
                          type="button"
                          className="button button-small button-outline"
                          aria-label={`Replay ${letter.eventType} ${letter.id}`}
                          disabled={isBusy}
                          onClick={() =>
                            run(
                              () => replay(letter.id).unwrap(),
                              deadLetterTexts.replayed,
                              deadLetterTexts.replayFailed,
                            )
                          }
                        >
                          Replay
                        </button>
                        <button
                          type="button"
                          className="button button-small button-danger-outline"
                          aria-label={`Discard ${letter.eventType} ${letter.id}`}
                          disabled={isBusy}
                          onClick={() =>
                            run(
                              () => discard(letter.id).unwrap(),
                              deadLetterTexts.discarded,
                              deadLetterTexts.discardFailed,
                            )
                          }
                        >
                          Discard
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Dead letter pages" page={page} pages={pages} onPage={setPage} isDisabled={letters.isFetching} />
        </>
      )}
    </section>
  );
}

/** The headers and the body as Kick sent them, folded away. */
function DeliveryDetails({ letter }: { letter: DeadLetter }) {
  const headers = Object.entries(letter.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  return (
    <details className="dead-letter-details">
      <summary>Delivery</summary>
      <pre className="mono small">{`${headers}\n\n${letter.body}`}</pre>
    </details>
  );
}
