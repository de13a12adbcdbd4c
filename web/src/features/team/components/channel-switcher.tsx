import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { api } from '../../../lib/api';
import { actingChannel } from '../../../lib/acting-channel';
import { useGetEditableChannelsQuery } from '../team-api';

const ownChannel = '';

/**
 * The editor's side: the channels I may edit, and which one the dashboard's commands, timers and
 * counters work on (the API client then names it in X-Kickstand-Channel).
 */
export function ChannelSwitcher() {
  const dispatch = useAppDispatch();
  const { data: channels = [], isError } = useGetEditableChannelsQuery();
  const [selected, setSelected] = useState(() => actingChannel.get()?.ownerUserId ?? ownChannel);

  const choose = (ownerUserId: string) => {
    const channel = channels.find((candidate) => candidate.ownerUserId === ownerUserId);
    actingChannel.set(channel ? { ownerUserId: channel.ownerUserId, ownerUsername: channel.ownerUsername } : null);
    setSelected(channel ? channel.ownerUserId : ownChannel);
    // what was loaded belongs to the other channel
    dispatch(api.util.resetApiState());
  };

  return (
    <section className="team-section" aria-labelledby="team-channels-heading">
      <h2 id="team-channels-heading">Channels I edit</h2>
      {isError && <p role="alert">The channels you edit could not be loaded.</p>}
      {channels.length === 0 && !isError && <p>Nobody has made you an editor of their channel yet.</p>}
      {channels.length > 0 && (
        <>
          <label htmlFor="team-acting-channel">Dashboard commands, timers and counters of</label>
          <select id="team-acting-channel" value={selected} onChange={(event) => choose(event.target.value)}>
            <option value={ownChannel}>My own channel</option>
            {channels.map((channel) => (
              <option key={channel.ownerUserId} value={channel.ownerUserId}>
                {channel.ownerUsername}
              </option>
            ))}
          </select>
        </>
      )}
    </section>
  );
}
