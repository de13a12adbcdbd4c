import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { commandPrefix } from '../../../config/constants';
import { toastShown } from '../../../lib/app-events';
import { useRemoveCommandMutation, type Command } from '../commands-api';
import { commandMessages } from '../command-validation';
import { CommandUsageLine } from '../usage/command-usage-line';

/** "Current Commands" with a count, the empty state, and Remove behind a confirmation (spec §2, §5). */
export function CommandList({ commands }: { commands: readonly Command[] }) {
  const dispatch = useAppDispatch();
  const [removeCommand, { isLoading }] = useRemoveCommandMutation();
  const [pending, setPending] = useState<string | undefined>();

  const confirmRemove = async () => {
    if (pending === undefined) return;
    const name = pending;
    try {
      await removeCommand({ command: name }).unwrap();
      dispatch(toastShown({ type: 'success', message: commandMessages.removed(name) }));
    } catch {
      dispatch(toastShown({ type: 'error', message: commandMessages.removeFailed }));
    } finally {
      setPending(undefined);
    }
  };

  return (
    <section className="command-list" aria-labelledby="current-commands-title">
      <h3 id="current-commands-title" className="section-title">
        Current Commands <span className="count-badge">{commands.length}</span>
      </h3>
      {commands.length === 0 ? (
        <div className="empty-state card">
          <p className="empty-title">No Commands Yet</p>
          <p className="muted">Add your first command to get started!</p>
        </div>
      ) : (
        <ul className="commands">
          {commands.map((command) => (
            <li key={command.command} className="command-item card">
              <div className="command-body">
                <code className="command-name">
                  {commandPrefix}
                  {command.command}
                </code>
                <p className="command-response">{command.response}</p>
                <CommandUsageLine name={command.command} />
              </div>
              <button
                type="button"
                className="button button-outline button-small button-danger-outline"
                aria-label={`Remove ${commandPrefix}${command.command}`}
                onClick={() => setPending(command.command)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {pending !== undefined && (
        <ConfirmDialog
          title="Remove command"
          message={commandMessages.confirmRemove(pending)}
          confirmLabel="Remove"
          isBusy={isLoading}
          onConfirm={confirmRemove}
          onCancel={() => setPending(undefined)}
        />
      )}
    </section>
  );
}
