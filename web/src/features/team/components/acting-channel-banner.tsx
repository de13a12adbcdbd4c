import './team.css';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { actingChannel } from '../../../lib/acting-channel';

/** On the dashboard while an editor works on another channel: says whose commands these are. */
export function ActingChannelBanner() {
  const channel = actingChannel.get();
  if (!channel) return null;
  return (
    <p className="acting-channel-banner" role="status">
      Editing <strong>{channel.ownerUsername}</strong>’s commands, timers and counters.{' '}
      <Link to={paths.team.href()}>Switch channel</Link>
    </p>
  );
}
