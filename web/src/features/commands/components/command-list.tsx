import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { commandPrefix } from '../../../config/constants';
import { toastShown } from '../../../lib/app-events';
import { useRemoveCommandMutation, useUpdateCommandMutation, type Command } from '../commands-api';
import { settingsSummary } from '../command-settings';
import { commandMessages } from '../command-validation';
import { CommandUsageLine } from '../usage/command-usage-line';
import { EditCommandDialog } from './edit-command-dialog';

/**
 * "Current Commands" with a count, the empty state, and Remove behind a confirmation (spec §2, §5);
 * per command its aliases, who may run it and its cooldowns, an Enabled switch and Edit (issue 19).
 */
export function CommandList({ commands }: { commands: readonly Command[] }) {
  const dispatch = useAppDispatch();
  const [removeCommand, { isLoading }] = useRemoveCommandMutation();
  const [updateCommand] = useUpdateCommandMutation();
  const [pending, setPending] = useState<string | undefined>();
  const [editing, setEditing] = useState<Command | undefined>();

  const toggle = async (command: Command) => {
    const enabled = !command.enabled;
    try {
      await updateCommand({ name: command.command, changes: { enabled } }).unwrap();
      const message = enabled ? commandMessages.enabled(command.command) : commandMessages.disabled(command.command);
      dispatch(toastShown({ type: 'success', message }));
    } catch {
      dispatch(toastShown({ type: 'error', message: commandMessages.updateFailed }));
    }
  };

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
            <li
              key={command.command}
              className={`command-item card${command.enabled ? '' : ' command-item-disabled'}`}
              data-testid={`command-${command.command}`}
            >
              <div className="command-body">
                <code className="command-name">
                  {commandPrefix}
                  {command.command}
                </code>
                {command.aliases.length > 0 && (
                  <span className="command-aliases">
                    {' '}
                    also{' '}
                    {command.aliases.map((alias) => (
                      <code key={alias} className="command-alias">
                        {commandPrefix}
                        {alias}
                      </code>
                    ))}
                  </span>
                )}
                {!command.enabled && <span className="badge badge-muted">Disabled</span>}
                <p className="command-response">{command.response}</p>
                <CommandUsageLine name={command.command} />
                <p className="command-settings">{settingsSummary(command)}</p>
              </div>
              <div className="command-actions">
                <label className="switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={command.enabled}
                    aria-label={`Enabled ${commandPrefix}${command.command}`}
                    onChange={() => void toggle(command)}
                  />
                  <span aria-hidden="true">{command.enabled ? 'On' : 'Off'}</span>
                </label>
                <button
                  type="button"
                  className="button button-outline button-small"
                  aria-label={`Edit ${commandPrefix}${command.command}`}
                  onClick={() => setEditing(command)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button button-outline button-small button-danger-outline"
                  aria-label={`Remove ${commandPrefix}${command.command}`}
                  onClick={() => setPending(command.command)}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <EditCommandDialog
          command={editing}
          otherNames={commands.filter((command) => command !== editing).map((command) => command.command)}
          onClose={() => setEditing(undefined)}
        />
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
