import { useAppSelector } from '../hooks';
import { selectChannelEvents, selectChatMessages } from '../../features/chat/chat-log-slice';
import { ChatLog } from '../../features/chat/components/chat-log';
import { MessageCount } from '../../features/chat/components/live-chat-tab';
import { useChatFeed } from '../../features/chat/use-chat-feed';
import { productName } from '../../config/constants';
import { usePageTitle } from '../../lib/page-title';
import { useSocketConnection } from '../../lib/socket';
import './dashboard/dashboard.css';

/** /chat-popout: the live chat at full height, with a connection dot (spec §2). */
export function ChatPopoutPage() {
  const isConnected = useSocketConnection();
  usePageTitle('Live Chat');
  useChatFeed();
  const messages = useAppSelector(selectChatMessages);
  const events = useAppSelector(selectChannelEvents);
  return (
    <div className="chat-popout">
      <header className="chat-popout-header">
        <h1 className="chat-popout-title">{productName} Live Chat</h1>
        <MessageCount count={messages.length} />
        <span
          className={`connection-dot ${isConnected ? 'connection-on' : 'connection-off'}`}
          role="img"
          aria-label={isConnected ? 'Connected' : 'Disconnected'}
          title={isConnected ? 'Connected' : 'Disconnected'}
          data-testid="connection-dot"
        />
      </header>
      <main className="chat-popout-body">
        <ChatLog messages={messages} events={events} />
      </main>
    </div>
  );
}
