import { eventMessageLabels, type EventMessageKind } from '@kickstand/api-contract';
import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { errorMessage } from '../../../lib/api-error';
import { toastShown } from '../../../lib/app-events';
import {
  streamPollMs,
  useGetEventMessagesQuery,
  useGetStreamQuery,
  useSaveEventMessagesMutation,
  type EventMessage,
} from '../event-messages-api';
import './event-messages.css';

/** Live or offline, the title and the category, as Kick's livestream events told the bot. */
function StreamCard() {
  const { data: stream } = useGetStreamQuery(undefined, { pollingInterval: streamPollMs });
  if (!stream) return null;
  return (
    <div className="card stream-card" aria-live="polite">
      <span className={stream.isLive ? 'stream-badge stream-live' : 'stream-badge'}>
        {stream.isLive ? 'Live' : 'Offline'}
      </span>
      <span className="stream-title">{stream.title || 'No title yet'}</span>
      {stream.game && <span className="muted">{stream.game}</span>}
    </div>
  );
}

/** One event message: its switch and its template, saved together. */
function EventMessageRow({ message }: { message: EventMessage }) {
  const dispatch = useAppDispatch();
  const [save, { isLoading }] = useSaveEventMessagesMutation();
  const [template, setTemplate] = useState(message.template);
  const label = eventMessageLabels[message.kind];
  const id = `event-message-${message.kind}`;

  const saveWith = async (enabled: boolean, text: string) => {
    try {
      await save({ [message.kind as EventMessageKind]: { enabled, template: text } }).unwrap();
      dispatch(toastShown({ type: 'success', message: `${label} message saved.` }));
    } catch (error) {
      dispatch(toastShown({ type: 'error', message: errorMessage(error, 'The message could not be saved.') }));
    }
  };

  return (
    <li className="card event-message">
      <div className="event-message-head">
        <label htmlFor={id}>{label}</label>
        <label className="switch">
          <input
            type="checkbox"
            checked={message.enabled}
            aria-label={`${label} message on`}
            onChange={(event) => void saveWith(event.target.checked, message.template)}
          />
          {message.enabled ? 'On' : 'Off'}
        </label>
      </div>
      <textarea
        id={id}
        rows={2}
        maxLength={500}
        value={template}
        onChange={(event) => setTemplate(event.target.value)}
      />
      <div className="event-message-foot">
        <span className="muted">Variables: {message.variables.map((name) => `{${name}}`).join(' ')}</span>
        <button
          type="button"
          className="button button-primary"
          disabled={isLoading || template === message.template}
          aria-label={`Save ${label.toLowerCase()} message`}
          onClick={() => void saveWith(message.enabled, template)}
        >
          Save
        </button>
      </div>
    </li>
  );
}

/** Event messages: what the bot says for follows, subscriptions, gifts, Kicks, rewards, going live and ending. */
export default function EventMessagesSection() {
  const { data: messages = [], isLoading, isError } = useGetEventMessagesQuery();
  return (
    <section className="event-messages-section" aria-labelledby="event-messages-heading">
      <StreamCard />
      <div className="tab-header">
        <div>
          <h2 id="event-messages-heading">Event messages</h2>
          <p className="muted">
            The bot thanks your viewers in chat while it runs. Several events of one kind within 5 seconds become one
            line, such as “Thanks to 12 new followers!”.
          </p>
        </div>
      </div>
      {isLoading ? (
        <p className="muted">Loading event messages…</p>
      ) : isError ? (
        <p role="alert">Your event messages could not be loaded.</p>
      ) : (
        <ul className="event-message-list">
          {messages.map((message) => (
            <EventMessageRow key={`${message.kind}:${message.template}`} message={message} />
          ))}
        </ul>
      )}
    </section>
  );
}
