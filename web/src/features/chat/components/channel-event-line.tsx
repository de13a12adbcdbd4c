import type { ChannelEvent } from '../../../lib/socket-events';
import { formatTime } from '../chat-format';
import { channelEventText } from '../chat-lines';

/** One event line of the live chat (a gift, a redemption, a follow, a subscription); text, never HTML. */
export function ChannelEventLine({ event }: { event: ChannelEvent }) {
  const time = formatTime(event.timestamp);
  return (
    <li className={`chat-line chat-line-event chat-line-event-${event.kind}`} data-testid="chat-event-line">
      <div className="chat-line-main">
        <span className="chat-text">{channelEventText(event)}</span>
        {time && <time className="chat-time">{time}</time>}
      </div>
    </li>
  );
}
