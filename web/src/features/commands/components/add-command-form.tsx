import { useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { commandPrefix, maxResponseLength, responseWarningLength } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useAddCommandMutation } from '../commands-api';
import { commandMessages, commandNameProblem, responseProblem } from '../command-validation';

export interface AddCommandFormProps {
  existingNames: readonly string[];
  onAdded: () => void;
  onCancel: () => void;
}

/** Name and response, validated live (spec §5); on success it reports back so the tab closes and resets it. */
export function AddCommandForm({ existingNames, onAdded, onCancel }: AddCommandFormProps) {
  const dispatch = useAppDispatch();
  const [addCommand, { isLoading }] = useAddCommandMutation();
  const [name, setName] = useState('');
  const [response, setResponse] = useState('');
  const [touched, setTouched] = useState({ name: false, response: false });
  const [submitProblem, setSubmitProblem] = useState<string | undefined>();
  const ids = { name: useId(), response: useId(), counter: useId() };

  const nameError = touched.name ? commandNameProblem(name, existingNames) : undefined;
  const responseError = touched.response ? responseProblem(response, 'inline') : undefined;
  const isNearLimit = response.length > responseWarningLength;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ name: true, response: true });
    const problem = commandNameProblem(name, existingNames) ?? responseProblem(response, 'submit');
    setSubmitProblem(problem);
    if (problem) return;
    const command = name.trim();
    try {
      await addCommand({ command, response }).unwrap();
      dispatch(toastShown({ type: 'success', message: commandMessages.added(command) }));
      onAdded();
    } catch (error) {
      setSubmitProblem(errorMessage(error, 'Failed to add command'));
      dispatch(toastShown({ type: 'error', message: commandMessages.addFailed }));
    }
  };

  return (
    <form className="form card add-command-form" onSubmit={submit} aria-label="Add Command">
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
            name="command"
            autoComplete="off"
            spellCheck={false}
            value={name}
            placeholder="hello"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${ids.name}-error` : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setTouched((current) => ({ ...current, name: true }));
              setSubmitProblem(undefined);
            }}
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
          name="response"
          rows={3}
          value={response}
          placeholder="Hello {user}, welcome to the stream!"
          aria-invalid={responseError ? true : undefined}
          aria-describedby={`${ids.counter}${responseError ? ` ${ids.response}-error` : ''}`}
          onChange={(event) => {
            setResponse(event.target.value);
            setTouched((current) => ({ ...current, response: true }));
            setSubmitProblem(undefined);
          }}
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
