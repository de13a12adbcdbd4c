import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useAppDispatch } from '../../../app/hooks';
import { FormError } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useAddCommandMutation } from '../commands-api';
import { commandMessages, inlineResponseMessage, newCommandSchema, type NewCommand } from '../command-validation';
import { CommandNameField, ResponseField, useNamesResolver } from './command-fields';

export interface AddCommandFormProps {
  existingNames: readonly string[];
  onAdded: () => void;
  onCancel: () => void;
}

/**
 * Name and response, validated live (spec §5) by react-hook-form with the contract's rules through
 * zodResolver; on success it reports back so the tab closes and resets it.
 */
export function AddCommandForm({ existingNames, onAdded, onCancel }: AddCommandFormProps) {
  const dispatch = useAppDispatch();
  const [addCommand, { isLoading }] = useAddCommandMutation();
  const resolver = useNamesResolver(newCommandSchema, existingNames);
  const { register, handleSubmit, control, formState } = useForm<NewCommand>({
    mode: 'onChange',
    defaultValues: { command: '', response: '' },
    resolver,
  });
  const response = useWatch({ control, name: 'response' });
  const [submitProblem, setSubmitProblem] = useState<string | undefined>();

  const nameError = formState.errors.command?.message;
  const responseError = inlineResponseMessage(formState.errors.response?.message);
  const clearSubmitProblem = () => setSubmitProblem(undefined);

  const submit = handleSubmit(
    async ({ command: name, response: text }) => {
      setSubmitProblem(undefined);
      const command = name.trim();
      try {
        await addCommand({ command, response: text }).unwrap();
        dispatch(toastShown({ type: 'success', message: commandMessages.added(command) }));
        onAdded();
      } catch (error) {
        setSubmitProblem(errorMessage(error, 'Failed to add command'));
        dispatch(toastShown({ type: 'error', message: commandMessages.addFailed }));
      }
    },
    // on submit the name's problem comes first, and the response's length has its submit wording
    (errors) => setSubmitProblem(errors.command?.message ?? errors.response?.message),
  );

  return (
    <form className="form card add-command-form" onSubmit={(event) => void submit(event)} aria-label="Add Command">
      <CommandNameField error={nameError} input={register('command', { onChange: clearSubmitProblem })} />
      <ResponseField
        error={responseError}
        length={response.length}
        input={register('response', { onChange: clearSubmitProblem })}
      />
      <FormError message={submitProblem} />
      <div className="actions-row">
        <button type="submit" className="button button-primary" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Save Command'}
        </button>
        <button type="button" className="button button-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
