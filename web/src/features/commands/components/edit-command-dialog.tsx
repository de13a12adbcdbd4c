import { commandPermissions, type CommandPermission } from '@kickstand/api-contract';
import { useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Modal } from '../../../components/ui/modal';
import { commandPrefix, maxResponseLength, responseWarningLength } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useUpdateCommandMutation, type Command } from '../commands-api';
import { aliasesProblem, cooldownProblem, parseAliases, permissionLabels } from '../command-settings';
import { commandMessages, commandNameProblem, responseProblem } from '../command-validation';

export interface EditCommandDialogProps {
  command: Command;
  /** The other commands' names (the edited one left out), for the live uniqueness check. */
  otherNames: readonly string[];
  onClose: () => void;
}

/**
 * Edit a command in place: name, response, aliases, who may run it and its cooldowns, with the
 * add form's live checks; the server checks again (aliases also against the other commands' aliases
 * and the built-in commands) and its message shows in the form.
 */
export function EditCommandDialog({ command, otherNames, onClose }: EditCommandDialogProps) {
  const dispatch = useAppDispatch();
  const [updateCommand, { isLoading }] = useUpdateCommandMutation();
  const [name, setName] = useState(command.command);
  const [response, setResponse] = useState(command.response);
  const [aliases, setAliases] = useState(command.aliases.join(' '));
  const [permission, setPermission] = useState<CommandPermission>(command.permission);
  const [globalCooldown, setGlobalCooldown] = useState(String(command.globalCooldownSeconds));
  const [userCooldown, setUserCooldown] = useState(String(command.userCooldownSeconds));
  const [modsExempt, setModsExempt] = useState(command.modsExempt);
  const [submitProblem, setSubmitProblem] = useState<string | undefined>();
  const id = useId();

  const nameError = commandNameProblem(name, otherNames);
  const responseError = responseProblem(response, 'inline');
  const aliasList = parseAliases(aliases);
  const aliasesError = aliasesProblem(aliasList, name);
  const globalError = cooldownProblem(globalCooldown);
  const userError = cooldownProblem(userCooldown);
  const isNearLimit = response.length > responseWarningLength;

  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSubmitProblem(undefined);
    };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem =
      nameError ?? responseProblem(response, 'submit') ?? aliasesError ?? globalError ?? userError ?? undefined;
    setSubmitProblem(problem);
    if (problem) return;
    const newName = name.trim();
    try {
      await updateCommand({
        name: command.command,
        changes: {
          command: newName,
          response,
          aliases: aliasList,
          permission,
          globalCooldownSeconds: Number(globalCooldown),
          userCooldownSeconds: Number(userCooldown),
          modsExempt,
        },
      }).unwrap();
      dispatch(toastShown({ type: 'success', message: commandMessages.updated(newName) }));
      onClose();
    } catch (error) {
      setSubmitProblem(errorMessage(error, commandMessages.updateFailed));
    }
  };

  const errorOf = (field: string, message: string | undefined) =>
    message && (
      <span id={`${id}-${field}-error`} className="field-error">
        {message}
      </span>
    );
  const describedBy = (field: string, message: string | undefined) =>
    message ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {};

  return (
    <Modal title={`Edit ${commandPrefix}${command.command}`} onClose={onClose} className="edit-command-dialog">
      <form className="form" noValidate onSubmit={submit} aria-label={`Edit ${commandPrefix}${command.command}`}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-name`}>
            Command name
          </label>
          <div className="input-with-prefix">
            <span className="input-prefix" aria-hidden="true">
              {commandPrefix}
            </span>
            <input
              id={`${id}-name`}
              autoComplete="off"
              spellCheck={false}
              value={name}
              onChange={(event) => edited(setName)(event.target.value)}
              {...describedBy('name', nameError)}
              data-autofocus
            />
          </div>
          {errorOf('name', nameError)}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-response`}>
            Response
          </label>
          <textarea
            id={`${id}-response`}
            rows={3}
            value={response}
            onChange={(event) => edited(setResponse)(event.target.value)}
            {...describedBy('response', responseError)}
          />
          <div className="field-footer">
            {errorOf('response', responseError) ?? <span />}
            <span className={`char-counter${isNearLimit ? ' char-counter-warning' : ''}`}>
              {response.length}/{maxResponseLength}
            </span>
          </div>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-aliases`}>
            Aliases
          </label>
          <input
            id={`${id}-aliases`}
            autoComplete="off"
            spellCheck={false}
            value={aliases}
            placeholder="dc server"
            onChange={(event) => edited(setAliases)(event.target.value)}
            {...describedBy('aliases', aliasesError)}
          />
          <span className="field-hint">Other names viewers can type, separated by spaces.</span>
          {errorOf('aliases', aliasesError)}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-permission`}>
            Who can use it
          </label>
          <select
            id={`${id}-permission`}
            value={permission}
            onChange={(event) => edited(setPermission)(event.target.value as CommandPermission)}
          >
            {commandPermissions.map((level) => (
              <option key={level} value={level}>
                {permissionLabels[level]}
              </option>
            ))}
          </select>
          <span className="field-hint">Higher ranks can always use it; others get no reply.</span>
        </div>
        <div className="field-row">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-global`}>
              Cooldown (seconds)
            </label>
            <input
              id={`${id}-global`}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={globalCooldown}
              onChange={(event) => edited(setGlobalCooldown)(event.target.value)}
              {...describedBy('global', globalError)}
            />
            {errorOf('global', globalError)}
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-user`}>
              Per-viewer cooldown (seconds)
            </label>
            <input
              id={`${id}-user`}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={userCooldown}
              onChange={(event) => edited(setUserCooldown)(event.target.value)}
              {...describedBy('user', userError)}
            />
            {errorOf('user', userError)}
          </div>
        </div>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={modsExempt}
            onChange={(event) => edited(setModsExempt)(event.target.checked)}
          />
          Moderators and the broadcaster skip the cooldowns
        </label>
        {submitProblem && (
          <p className="form-error" role="alert">
            {submitProblem}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={isLoading}>
            {isLoading ? 'Saving…' : 'Save Changes'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
