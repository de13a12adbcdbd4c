import { useAppSelector } from '../../../app/hooks';
import { chatPopout } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { selectChannelEvents, selectChatMessages } from '../chat-log-slice';
import { ChatLog } from './chat-log';

export function openChatPopout(): void {
  window.open(
    paths.chatPopout.href(),
    'kickstand-chat',
    `popup=yes,width=${chatPopout.width},height=${chatPopout.height}`,
  );
}

export function MessageCount({ count }: { count: number }) {
  return (
    <span className="count-badge" data-testid="message-count">
      {count} {count === 1 ? 'message' : 'messages'}
    </span>
  );
}

/** The Live Chat tab: message count, pop-out button, the log (spec §2). */
export function LiveChatTab() {
  const messages = useAppSelector(selectChatMessages);
  const events = useAppSelector(selectChannelEvents);
  return (
    <div className="live-chat-tab">
      <div className="tab-header">
        <div>
          <h2>
            Live Chat <MessageCount count={messages.length} />
          </h2>
          <p className="muted">Your channel's chat and the bot's replies, as they happen.</p>
        </div>
        <button type="button" className="button button-outline" onClick={openChatPopout}>
          Pop Out Chat
        </button>
      </div>
      <div className="chat-panel card">
        <ChatLog messages={messages} events={events} />
      </div>
    </div>
  );
}
