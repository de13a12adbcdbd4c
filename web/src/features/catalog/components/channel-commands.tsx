import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { commandPrefix } from '../../../config/constants';
import { errorMessage } from '../../../lib/api-error';
import { settingsSummary } from '../../commands/command-settings';
import { useGetChannelCommandsQuery } from '../catalog-api';

/** One channel's custom commands, with aliases, who may run each and its cooldowns. */
function ChannelCommandList({ channel }: { channel: string }) {
  const { data, isFetching, error } = useGetChannelCommandsQuery(channel);
  if (isFetching) return <Spinner label="Loading the channel's commands" />;
  if (error || !data) {
    return (
      <p className="card empty-state" role="alert">
        {errorMessage(error, 'The channel’s commands could not be loaded.')}
      </p>
    );
  }
  return (
    <section className="catalog-category" aria-labelledby="channel-commands-title">
      <h2 id="channel-commands-title">Custom commands of {data.channel}</h2>
      {data.commands.length === 0 ? (
        <p className="muted">This channel has no custom commands yet.</p>
      ) : (
        <ul className="catalog-commands">
          {data.commands.map((command) => (
            <li
              key={command.command}
              className="catalog-command card"
              data-testid={`channel-command-${command.command}`}
            >
              <h3 className="catalog-command-name">
                <code>
                  {commandPrefix}
                  {command.command}
                </code>
                {command.aliases.map((alias) => (
                  <code key={alias} className="muted">
                    {' '}
                    {commandPrefix}
                    {alias}
                  </code>
                ))}
              </h3>
              <p>{command.response}</p>
              <p className="muted">{settingsSummary(command)}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The public page's channel lookup: a viewer types a channel's name and sees its custom commands.
 * The channel is in the address (`?channel=`), so a streamer can share the link.
 */
export function ChannelCommands() {
  const [params, setParams] = useSearchParams();
  const channel = params.get('channel')?.trim() ?? '';
  const [typed, setTyped] = useState(channel);
  const inputId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = typed.trim();
    setParams(name === '' ? {} : { channel: name });
  };

  return (
    <div className="channel-commands">
      <form className="form" role="search" onSubmit={submit} aria-label="Find a channel's commands">
        <label className="field-label" htmlFor={inputId}>
          A channel’s custom commands
        </label>
        <div className="actions-row">
          <input
            id={inputId}
            value={typed}
            placeholder="Kick channel name"
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit" className="button button-primary">
            Show
          </button>
        </div>
      </form>
      {channel !== '' && <ChannelCommandList channel={channel} />}
    </div>
  );
}
