import { timerBodySchema, type TimerBody } from '@kickstand/api-contract';
import { useId, useState, type FormEvent } from 'react';
import { FormError } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-error';

interface Props {
  /** The timer being edited; a new one when absent. */
  initial?: TimerBody;
  submitLabel: string;
  onSubmit(body: TimerBody): Promise<unknown>;
  onCancel(): void;
}

/** Message, interval and minimum chat lines, checked with the contract's rules before sending. */
export function TimerForm({ initial, submitLabel, onSubmit, onCancel }: Props) {
  const ids = useId();
  const [message, setMessage] = useState(initial?.message ?? '');
  const [interval, setInterval] = useState(String(initial?.intervalMinutes ?? 15));
  const [minLines, setMinLines] = useState(String(initial?.minChatLines ?? 5));
  const [problem, setProblem] = useState<string>();
  const [isSending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = timerBodySchema.safeParse({
      message,
      intervalMinutes: interval.trim() === '' ? Number.NaN : Number(interval),
      minChatLines: minLines.trim() === '' ? Number.NaN : Number(minLines),
      ...(initial?.enabled !== undefined ? { enabled: initial.enabled } : {}),
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message);
      return;
    }
    setProblem(undefined);
    setSending(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      setProblem(errorMessage(error, 'The timer could not be saved.'));
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="card timer-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={`${ids}-message`}>Message</label>
      <textarea id={`${ids}-message`} value={message} onChange={(event) => setMessage(event.target.value)} rows={2} />
      <div className="timer-form-numbers">
        <label htmlFor={`${ids}-interval`}>Every (minutes)</label>
        <input
          id={`${ids}-interval`}
          type="number"
          inputMode="numeric"
          value={interval}
          onChange={(event) => setInterval(event.target.value)}
        />
        <label htmlFor={`${ids}-lines`}>Minimum chat lines</label>
        <input
          id={`${ids}-lines`}
          type="number"
          inputMode="numeric"
          value={minLines}
          onChange={(event) => setMinLines(event.target.value)}
        />
      </div>
      <FormError message={problem} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={isSending}>
          {submitLabel}
        </button>
        <button type="button" className="button button-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
