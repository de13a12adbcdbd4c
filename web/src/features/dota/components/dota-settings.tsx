import { gamesSettingsBodySchema } from '@kickstand/api-contract';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { useGetGameSettingsQuery, useUpdateGameSettingsMutation } from '../dota-api';

/** The contract's check (a 32-bit account id or a 64-bit SteamID); empty turns the lookups off. */
export const steamIdProblem = (value: string): string | undefined =>
  value === '' || gamesSettingsBodySchema.safeParse({ steamAccountId: value }).success
    ? undefined
    : 'The Steam account ID is a number, e.g. 123456789.';

/** The Dota 2 setting: which Steam account $mmr and $rank look up (OpenDota's account id). */
export function DotaSettings() {
  const dispatch = useAppDispatch();
  const { data, isLoading, isError } = useGetGameSettingsQuery();
  const [save, { isLoading: isSaving }] = useUpdateGameSettingsMutation();
  const [value, setValue] = useState('');
  const inputId = useId();

  useEffect(() => {
    if (data) setValue(data.steamAccountId === null ? '' : String(data.steamAccountId));
  }, [data]);

  const problem = steamIdProblem(value.trim());
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    const steamAccountId = value.trim() === '' ? null : value.trim();
    try {
      await save({ steamAccountId }).unwrap();
      dispatch(toastShown({ type: 'success', message: 'Dota 2 settings saved!' }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Failed to save Dota 2 settings') }));
    }
  };

  return (
    <section className="card dota-settings" aria-labelledby={`${inputId}-title`}>
      <h3 id={`${inputId}-title`} className="section-title">
        Dota 2
      </h3>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor={inputId}>
            Steam account ID
          </label>
          <input
            id={inputId}
            inputMode="numeric"
            autoComplete="off"
            placeholder={isLoading ? 'Loading…' : 'e.g. 123456789'}
            value={value}
            disabled={isLoading}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${inputId}-hint`}
            onChange={(event) => setValue(event.target.value)}
          />
          <span id={`${inputId}-hint`} className={problem ? 'field-error' : 'field-hint'}>
            {problem ??
              'Used by $mmr and $rank: the number in your OpenDota or Dotabuff profile URL, or your 64-bit SteamID. Leave empty to turn them off.'}
          </span>
          {isError && <span className="field-hint">The current setting could not be loaded.</span>}
        </div>
        <div className="actions-row">
          <button type="submit" className="button button-primary" disabled={isSaving || isLoading || !!problem}>
            {isSaving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </section>
  );
}
