import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useAppDispatch } from '../../../app/hooks';
import { commandPrefix, maxResponseLength, responseWarningLength } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useAddCommandMutation } from '../commands-api';
import { commandMessages, inlineResponseMessage, newCommandSchema, type NewCommand } from '../command-validation';

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
  // the list changes while the form is open: the resolver reads the names of the moment
  const existingRef = useRef(existingNames);
  useLayoutEffect(() => {
    existingRef.current = existingNames;
  });
  const { register, handleSubmit, control, formState } = useForm<NewCommand>({
    mode: 'onChange',
    defaultValues: { command: '', response: '' },
    resolver: (values, context, options) =>
      zodResolver(newCommandSchema(existingRef.current))(values, context, options),
  });
  const response = useWatch({ control, name: 'response' });
  const [submitProblem, setSubmitProblem] = useState<string | undefined>();
  const ids = { name: useId(), response: useId(), counter: useId() };

  const nameError = formState.errors.command?.message;
  const responseError = inlineResponseMessage(formState.errors.response?.message);
  const isNearLimit = response.length > responseWarningLength;
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
      <div className="field">
        <label className="field-label" htmlFor={ids.name}>
          Command name
        </label>
        <div className="input-with-prefix">
          <span className="input-prefix" aria-hidden="true">
            {commandPrefix}
          </span>
          <input
            id={ids.name}
            {...register('command', { onChange: clearSubmitProblem })}
            autoComplete="off"
            spellCheck={false}
            placeholder="hello"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${ids.name}-error` : undefined}
            data-autofocus
          />
        </div>
        {nameError && (
          <span id={`${ids.name}-error`} className="field-error">
            {nameError}
          </span>
        )}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.response}>
          Response
        </label>
        <textarea
          id={ids.response}
          {...register('response', { onChange: clearSubmitProblem })}
          rows={3}
          placeholder="Hello {user}, welcome to the stream!"
          aria-invalid={responseError ? true : undefined}
          aria-describedby={`${ids.counter}${responseError ? ` ${ids.response}-error` : ''}`}
        />
        <div className="field-footer">
          {responseError ? (
            <span id={`${ids.response}-error`} className="field-error">
              {responseError}
            </span>
          ) : (
            <span />
          )}
          <span
            id={ids.counter}
            className={`char-counter${isNearLimit ? ' char-counter-warning' : ''}`}
            data-testid="response-counter"
          >
            {response.length}/{maxResponseLength}
          </span>
        </div>
      </div>
      {submitProblem && (
        <p className="form-error" role="alert">
          {submitProblem}
        </p>
      )}
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
