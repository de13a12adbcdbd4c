import {
  moderationActionKinds,
  moderationMessages,
  permitSeconds,
  type FilterAction,
  type FilterName,
} from '@kickstand/api-contract';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import { browser } from '../../../lib/browser';
import {
  useGetModerationFiltersQuery,
  useGrantModerationMutation,
  useSaveModerationFiltersMutation,
  type ModerationFilters,
} from '../moderation-api';

const filterTitles: Record<FilterName, string> = {
  links: 'Links',
  caps: 'Excessive caps',
  words: 'Banned words and phrases',
  repeats: 'Repeated messages',
  length: 'Very long messages',
  emotes: 'Emote spam',
};

const actionTitles: Record<FilterAction['kind'], string> = {
  delete: 'Delete the message',
  timeout: 'Time out',
  ban: 'Ban',
};

/** One entry a line: how the allow list and the banned words are edited. */
const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** "Grant moderation access": the Kick link flow again, asking the moderation scopes too. */
function GrantModerationAccess() {
  const dispatch = useAppDispatch();
  const [grant, { isLoading }] = useGrantModerationMutation();
  const start = async () => {
    try {
      browser.goTo((await grant().unwrap()).authUrl);
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'Failed to start Kick linking') }));
    }
  };
  return (
    <div className="card moderation-grant" role="status">
      <p>{moderationMessages.missingScope}</p>
      <button type="button" className="button button-primary" disabled={isLoading} onClick={() => void start()}>
        Grant moderation access
      </button>
    </div>
  );
}

function NumberField(props: { label: string; value: number; onChange: (value: number) => void }) {
  const id = useId();
  return (
    <span className="moderation-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        value={Number.isFinite(props.value) ? props.value : ''}
        onChange={(event) => props.onChange(event.target.valueAsNumber)}
      />
    </span>
  );
}

function ListField(props: { label: string; hint: string; value: string[]; onChange: (value: string[]) => void }) {
  const id = useId();
  const [text, setText] = useState(props.value.join('\n'));
  return (
    <span className="moderation-field moderation-list">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        rows={3}
        value={text}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setText(event.target.value);
          props.onChange(linesOf(event.target.value));
        }}
      />
      <small id={`${id}-hint`} className="muted">
        {props.hint}
      </small>
    </span>
  );
}

function FilterCard(props: {
  name: FilterName;
  enabled: boolean;
  action: FilterAction;
  onChange: (change: { enabled?: boolean; action?: FilterAction }) => void;
  children: ReactNode;
}) {
  const id = useId();
  const { action } = props;
  return (
    <fieldset className="card moderation-filter" data-filter={props.name}>
      <legend>{filterTitles[props.name]}</legend>
      <label className="moderation-switch">
        <input
          type="checkbox"
          checked={props.enabled}
          onChange={(event) => props.onChange({ enabled: event.target.checked })}
        />{' '}
        On
      </label>
      <div className="moderation-settings">{props.children}</div>
      <div className="moderation-settings">
        <span className="moderation-field">
          <label htmlFor={`${id}-action`}>Action</label>
          <select
            id={`${id}-action`}
            value={action.kind}
            onChange={(event) =>
              props.onChange({ action: { ...action, kind: event.target.value as FilterAction['kind'] } })
            }
          >
            {moderationActionKinds.map((kind) => (
              <option key={kind} value={kind}>
                {actionTitles[kind]}
              </option>
            ))}
          </select>
        </span>
        {action.kind === 'timeout' && (
          <NumberField
            label="Minutes"
            value={action.timeoutMinutes}
            onChange={(timeoutMinutes) => props.onChange({ action: { ...action, timeoutMinutes } })}
          />
        )}
        <span className="moderation-field moderation-warning">
          <label htmlFor={`${id}-warning`}>Warning in chat (optional, {'{user}'} is the sender)</label>
          <input
            id={`${id}-warning`}
            value={action.warning}
            maxLength={200}
            onChange={(event) => props.onChange({ action: { ...action, warning: event.target.value } })}
          />
        </span>
      </div>
    </fieldset>
  );
}

/**
 * The channel's filters, each on/off with its settings and action. Moderators, VIPs and the
 * broadcaster are never filtered. Switching one on needs Kick's moderation scopes: without them
 * the save is refused and "Grant moderation access" starts the Kick link asking for them.
 */
export function ModerationFiltersSection() {
  const dispatch = useAppDispatch();
  const { data, isLoading, isError } = useGetModerationFiltersQuery();
  const [save, { isLoading: isSaving }] = useSaveModerationFiltersMutation();
  const [draft, setDraft] = useState<ModerationFilters>();
  const [needsGrant, setNeedsGrant] = useState(false);

  useEffect(() => {
    if (data && !draft) setDraft(data.filters);
  }, [data, draft]);

  if (isLoading || (!draft && !isError)) return <p className="muted">Loading filters…</p>;
  if (isError || !draft || !data) return <p role="alert">Your filters could not be loaded.</p>;

  const change = <N extends FilterName>(name: N, part: Partial<ModerationFilters[N]>) =>
    setDraft({ ...draft, [name]: { ...draft[name], ...part } });
  const card = (name: FilterName, children: ReactNode) => (
    <FilterCard
      name={name}
      enabled={draft[name].enabled}
      action={draft[name].action}
      onChange={(part) => change(name, part)}
    >
      {children}
    </FilterCard>
  );

  const submit = async () => {
    try {
      await save(draft).unwrap();
      setNeedsGrant(false);
      dispatch(toastShown({ type: 'success', message: moderationMessages.saved }));
    } catch (error) {
      const message = errorMessage(error, 'The filters could not be saved.');
      if (message === moderationMessages.missingScope) setNeedsGrant(true);
      else dispatch(toastShown({ type: 'error', message }));
    }
  };

  return (
    <section className="moderation-filters" aria-labelledby="filters-heading">
      <h2 id="filters-heading">Filters</h2>
      <p className="muted">Moderators, VIPs and the broadcaster are never filtered.</p>
      {(needsGrant || data.missingScopes.length > 0) && <GrantModerationAccess />}
      <label className="moderation-switch">
        <input
          type="checkbox"
          checked={draft.exemptSubscribers}
          onChange={(event) => setDraft({ ...draft, exemptSubscribers: event.target.checked })}
        />{' '}
        Subscribers are exempt too
      </label>
      {card(
        'links',
        <ListField
          label="Allowed domains"
          hint={`One a line, e.g. kick.com (its subdomains too). A moderator's "$permit user" lets that user post one link within ${permitSeconds} s.`}
          value={draft.links.allowedDomains}
          onChange={(allowedDomains) => change('links', { allowedDomains })}
        />,
      )}
      {card(
        'caps',
        <>
          <NumberField
            label="At least letters"
            value={draft.caps.minLetters}
            onChange={(minLetters) => change('caps', { minLetters })}
          />
          <NumberField
            label="Capitals (%)"
            value={draft.caps.percent}
            onChange={(percent) => change('caps', { percent })}
          />
        </>,
      )}
      {card(
        'words',
        <ListField
          label="Banned words or phrases"
          hint="One a line. Whole words in any case; * (any characters) or ? (one character) make a pattern."
          value={draft.words.terms}
          onChange={(terms) => change('words', { terms })}
        />,
      )}
      {card(
        'repeats',
        <>
          <NumberField
            label="Same message, times"
            value={draft.repeats.count}
            onChange={(count) => change('repeats', { count })}
          />
          <NumberField
            label="Within seconds"
            value={draft.repeats.windowSeconds}
            onChange={(windowSeconds) => change('repeats', { windowSeconds })}
          />
        </>,
      )}
      {card(
        'length',
        <NumberField
          label="Longer than characters"
          value={draft.length.maxCharacters}
          onChange={(maxCharacters) => change('length', { maxCharacters })}
        />,
      )}
      {card(
        'emotes',
        <NumberField
          label="More emotes than"
          value={draft.emotes.maxEmotes}
          onChange={(maxEmotes) => change('emotes', { maxEmotes })}
        />,
      )}
      <div className="form-actions">
        <button type="button" className="button button-primary" disabled={isSaving} onClick={() => void submit()}>
          Save Filters
        </button>
      </div>
    </section>
  );
}
