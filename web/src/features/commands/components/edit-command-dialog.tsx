import { commandPermissions } from '@kickstand/api-contract';
import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useAppDispatch } from '../../../app/hooks';
import { Field, FormError } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { commandPrefix } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useUpdateCommandMutation, type Command } from '../commands-api';
import { parseAliases, permissionLabels } from '../command-settings';
import { commandMessages, editedCommandSchema, inlineResponseMessage, type EditedCommand } from '../command-validation';
import { CommandNameField, ResponseField, useNamesResolver } from './command-fields';

const cooldowns = [
  { name: 'globalCooldown', label: 'Cooldown (seconds)' },
  { name: 'userCooldown', label: 'Per-viewer cooldown (seconds)' },
] as const;

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
  const resolver = useNamesResolver(editedCommandSchema, otherNames);
  const { register, handleSubmit, control, formState, trigger } = useForm<EditedCommand>({
    mode: 'onChange',
    defaultValues: {
      command: command.command,
      response: command.response,
      aliases: command.aliases.join(' '),
      permission: command.permission,
      globalCooldown: String(command.globalCooldownSeconds),
      userCooldown: String(command.userCooldownSeconds),
      modsExempt: command.modsExempt,
    },
    resolver,
  });
  // the checks are on from the start: a stored command that breaks today's rules says so at once
  useEffect(() => {
    void trigger();
  }, [trigger]);
  const response = useWatch({ control, name: 'response' });
  const [submitProblem, setSubmitProblem] = useState<string | undefined>();
  const id = useId();

  const { errors } = formState;
  const nameError = errors.command?.message;
  const responseError = inlineResponseMessage(errors.response?.message);
  const aliasesError = errors.aliases?.message;
  const edited = { onChange: () => setSubmitProblem(undefined) };

  const submit = handleSubmit(
    async (form) => {
      setSubmitProblem(undefined);
      const newName = form.command.trim();
      try {
        await updateCommand({
          name: command.command,
          changes: {
            command: newName,
            response: form.response,
            aliases: parseAliases(form.aliases),
            permission: form.permission,
            globalCooldownSeconds: Number(form.globalCooldown),
            userCooldownSeconds: Number(form.userCooldown),
            modsExempt: form.modsExempt,
          },
        }).unwrap();
        dispatch(toastShown({ type: 'success', message: commandMessages.updated(newName) }));
        onClose();
      } catch (error) {
        setSubmitProblem(errorMessage(error, commandMessages.updateFailed));
      }
    },
    // the first problem in the form's order; the response's length in its submit wording
    (found) =>
      setSubmitProblem(
        found.command?.message ??
          found.response?.message ??
          found.aliases?.message ??
          found.globalCooldown?.message ??
          found.userCooldown?.message,
      ),
  );

  return (
    <Modal title={`Edit ${commandPrefix}${command.command}`} onClose={onClose} className="edit-command-dialog">
      <form
        className="form"
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-label={`Edit ${commandPrefix}${command.command}`}
      >
        <CommandNameField error={nameError} input={register('command', { ...edited, deps: ['aliases'] })} />
        <ResponseField error={responseError} length={response.length} input={register('response', edited)} />
        <Field label="Aliases" error={aliasesError} hint="Other names viewers can type, separated by spaces.">
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              spellCheck={false}
              {...register('aliases', edited)}
              placeholder="dc server"
            />
          )}
        </Field>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-permission`}>
            Who can use it
          </label>
          <select id={`${id}-permission`} {...register('permission', edited)}>
            {commandPermissions.map((level) => (
              <option key={level} value={level}>
                {permissionLabels[level]}
              </option>
            ))}
          </select>
          <span className="field-hint">Higher ranks can always use it; others get no reply.</span>
        </div>
        <div className="field-row">
          {cooldowns.map(({ name, label }) => (
            <Field key={name} label={label} error={errors[name]?.message}>
              {(control) => (
                <input {...control} type="number" inputMode="numeric" min={0} step={1} {...register(name, edited)} />
              )}
            </Field>
          ))}
        </div>
        <label className="checkbox-field">
          <input type="checkbox" {...register('modsExempt', edited)} />
          Moderators and the broadcaster skip the cooldowns
        </label>
        <FormError message={submitProblem} />
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
