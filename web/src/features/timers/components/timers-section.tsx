import { timerIntervalMinMinutes } from '@kickstand/api-contract';
import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import {
  useAddTimerMutation,
  useDeleteTimerMutation,
  useGetTimersQuery,
  useSaveTimerMutation,
  useToggleTimerMutation,
  type Timer,
} from '../timers-api';
import { TimerForm } from './timer-form';

const everyText = (timer: Timer) =>
  `Every ${timer.intervalMinutes} min${timer.minChatLines > 0 ? `, after ${timer.minChatLines} chat lines` : ''}`;

/**
 * Timers: messages the bot posts every N minutes while the channel is live, after at least M chat
 * lines; the enabled ones take turns in this order. Add, edit, switch on/off, delete.
 */
export function TimersSection() {
  const dispatch = useAppDispatch();
  const { data: timers = [], isLoading, isError } = useGetTimersQuery();
  const [addTimer] = useAddTimerMutation();
  const [saveTimer] = useSaveTimerMutation();
  const [toggleTimer] = useToggleTimerMutation();
  const [deleteTimer] = useDeleteTimerMutation();
  const [editing, setEditing] = useState<string | 'new'>();

  const failed = (error: unknown, fallback: string) =>
    dispatch(toastShown({ type: 'error', message: errorMessage(error, fallback) }));

  return (
    <section className="timers-section" aria-labelledby="timers-heading">
      <div className="tab-header">
        <div>
          <h2 id="timers-heading">Timers</h2>
          <p className="muted">
            Posted in chat every few minutes (at least {timerIntervalMinMinutes}) while you are live, only when enough
            chat lines arrived since the last one. Enabled timers take turns, in this order.
          </p>
        </div>
        {editing !== 'new' && (
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            Add Timer
          </button>
        )}
      </div>
      {editing === 'new' && (
        <TimerForm
          submitLabel="Save Timer"
          onSubmit={async (body) => {
            await addTimer(body).unwrap();
            setEditing(undefined);
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      {isLoading ? (
        <p className="muted">Loading timers…</p>
      ) : isError ? (
        <p role="alert">Your timers could not be loaded.</p>
      ) : timers.length === 0 ? (
        <p className="muted">No timers yet.</p>
      ) : (
        <ul className="timer-list">
          {timers.map((timer) =>
            editing === timer.id ? (
              <li key={timer.id}>
                <TimerForm
                  initial={timer}
                  submitLabel="Save Changes"
                  onSubmit={async (body) => {
                    await saveTimer({ id: timer.id, body }).unwrap();
                    setEditing(undefined);
                  }}
                  onCancel={() => setEditing(undefined)}
                />
              </li>
            ) : (
              <li key={timer.id} className="card timer-item">
                <p className="timer-message">{timer.message}</p>
                <p className="muted">{everyText(timer)}</p>
                <label className="switch">
                  <input
                    type="checkbox"
                    checked={timer.enabled}
                    aria-label={`Enabled: ${timer.message}`}
                    onChange={(event) =>
                      void toggleTimer({ id: timer.id, enabled: event.target.checked })
                        .unwrap()
                        .catch((error: unknown) => failed(error, 'The timer could not be switched.'))
                    }
                  />
                  {timer.enabled ? 'On' : 'Off'}
                </label>
                <button
                  type="button"
                  className="button button-outline"
                  aria-label={`Edit timer: ${timer.message}`}
                  onClick={() => setEditing(timer.id)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button button-danger"
                  aria-label={`Delete timer: ${timer.message}`}
                  onClick={() =>
                    void deleteTimer(timer.id)
                      .unwrap()
                      .catch((error: unknown) => failed(error, 'The timer could not be deleted.'))
                  }
                >
                  Delete
                </button>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}
