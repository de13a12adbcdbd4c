import { counterMessages, counterNamePattern } from '@kickstand/api-contract';
import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { FormError } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import {
  useDeleteCounterMutation,
  useGetCountersQuery,
  useResetCounterMutation,
  useSetCounterMutation,
} from '../timers-api';

/** The channel's named counters ({counter:name} in a response): see, set, reset, delete, or start one. */
export function CountersSection() {
  const dispatch = useAppDispatch();
  const { data: counters = [], isError } = useGetCountersQuery();
  const [setCounter] = useSetCounterMutation();
  const [resetCounter] = useResetCounterMutation();
  const [deleteCounter] = useDeleteCounterMutation();
  const [name, setName] = useState('');
  const [value, setValue] = useState('0');
  const [problem, setProblem] = useState<string>();

  const failed = (error: unknown, fallback: string) =>
    dispatch(toastShown({ type: 'error', message: errorMessage(error, fallback) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!counterNamePattern.test(name.trim())) {
      setProblem(counterMessages.invalidName);
      return;
    }
    try {
      await setCounter({ name: name.trim(), value: Number(value) }).unwrap();
      setProblem(undefined);
      setName('');
      setValue('0');
    } catch (error) {
      setProblem(errorMessage(error, 'The counter could not be set.'));
    }
  };

  return (
    <section className="counters-section" aria-labelledby="counters-heading">
      <h2 id="counters-heading">Counters</h2>
      <p className="muted">
        A response shows a counter with {'{counter:name}'} and changes it with {'{counter:name+1}'} or{' '}
        {'{counter:name-1}'}.
      </p>
      {isError && <p role="alert">Your counters could not be loaded.</p>}
      <ul className="counter-list">
        {counters.map((counter) => (
          <li key={counter.name} className="counter-item">
            <code>{counter.name}</code> <strong>{counter.value}</strong>
            <button
              type="button"
              className="button button-outline"
              aria-label={`Reset ${counter.name}`}
              onClick={() =>
                void resetCounter(counter.name)
                  .unwrap()
                  .catch((error: unknown) => failed(error, 'The counter could not be reset.'))
              }
            >
              Reset
            </button>
            <button
              type="button"
              className="button button-danger"
              aria-label={`Delete ${counter.name}`}
              onClick={() =>
                void deleteCounter(counter.name)
                  .unwrap()
                  .catch((error: unknown) => failed(error, 'The counter could not be deleted.'))
              }
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <form className="counter-form" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor="counter-name">Counter name</label>
        <input id="counter-name" value={name} onChange={(event) => setName(event.target.value)} />
        <label htmlFor="counter-value">Value</label>
        <input
          id="counter-value"
          type="number"
          inputMode="numeric"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="button button-outline">
          Set Counter
        </button>
        <FormError message={problem} />
      </form>
    </section>
  );
}
