import { useId, type ReactNode } from 'react';

/** What Field hands its control: spread it on the input (with react-hook-form's `register`). */
export interface FieldControl {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface CharCounter {
  length: number;
  max: number;
  /** Above this length the counter turns to its warning colour. */
  warnAbove: number;
  testId?: string;
}

interface FieldProps {
  label: string;
  /** The field's problem (react-hook-form's `errors.<field>?.message`): shown under the control and tied to it. */
  error?: string | undefined;
  /** A line of help under the control, tied to it. */
  hint?: ReactNode;
  /** A character counter on the error's line, at its end; tied to the control. */
  counter?: CharCounter;
  /** The control, given its id and accessibility attributes; anything around it (a prefix) is the caller's. */
  children: (control: FieldControl) => ReactNode;
}

/**
 * A labelled form field with its error message: the label points at the control, and the control
 * is marked invalid and described by the message (and by its hint and counter) while there is one.
 */
export function Field({ label, error, hint, counter, children }: FieldProps) {
  const id = useId();
  const ids = { hint: `${id}-hint`, counter: `${id}-counter`, error: `${id}-error` };
  const describedBy = [hint !== undefined && ids.hint, counter && ids.counter, error && ids.error]
    .filter((part): part is string => typeof part === 'string')
    .join(' ');
  const control: FieldControl = {
    id,
    ...(error ? { 'aria-invalid': true } : {}),
    ...(describedBy !== '' ? { 'aria-describedby': describedBy } : {}),
  };
  const message = error ? (
    <span id={ids.error} className="field-error">
      {error}
    </span>
  ) : null;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children(control)}
      {hint !== undefined && (
        <span id={ids.hint} className="field-hint">
          {hint}
        </span>
      )}
      {counter ? (
        <div className="field-footer">
          {message ?? <span />}
          <span
            id={ids.counter}
            className={`char-counter${counter.length > counter.warnAbove ? ' char-counter-warning' : ''}`}
            data-testid={counter.testId}
          >
            {counter.length}/{counter.max}
          </span>
        </div>
      ) : (
        message
      )}
    </div>
  );
}

/** The form's own problem (a refused submit, the server's answer), announced as it appears. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
