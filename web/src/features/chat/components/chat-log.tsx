import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import type { ChatMessage } from '../../../lib/socket-events';
import { isNearBottom } from '../chat-format';
import { ChatLine } from './chat-line';

/**
 * The scrolling list of chat lines. A new line scrolls to the bottom when the reader is within
 * 100 px of it; otherwise a "New messages" divider marks where the unread lines start (it goes once
 * a line arrives while the reader is at the bottom again).
 */
export function ChatLog({ messages }: { messages: readonly ChatMessage[] }) {
  const listRef = useRef<HTMLDivElement>(null);
  const isNearBottomRef = useRef(true);
  const lastIdRef = useRef<string | null>(null);
  const [dividerBeforeId, setDividerBeforeId] = useState<string | null>(null);

  useLayoutEffect(() => {
    const last = messages[messages.length - 1];
    const previousLastId = lastIdRef.current;
    if (!last || last.id === previousLastId) return;
    lastIdRef.current = last.id;
    const list = listRef.current;
    if (isNearBottomRef.current || previousLastId === null) {
      if (list) list.scrollTop = list.scrollHeight;
      setDividerBeforeId(null);
    } else if (dividerBeforeId === null || !messages.some((message) => message.id === dividerBeforeId)) {
      const previousIndex = messages.findIndex((message) => message.id === previousLastId);
      setDividerBeforeId((messages[previousIndex + 1] ?? last).id);
    }
  }, [messages, dividerBeforeId]);

  const onScroll = () => {
    if (listRef.current) isNearBottomRef.current = isNearBottom(listRef.current);
  };

  if (messages.length === 0) {
    return (
      <div className="chat-log chat-log-empty">
        <p className="muted">No messages yet. Start the bot and begin chatting!</p>
      </div>
    );
  }

  return (
    <div
      ref={listRef}
      className="chat-log"
      onScroll={onScroll}
      role="log"
      aria-label="Chat messages"
      tabIndex={0}
      data-testid="chat-log"
    >
      <ul className="chat-lines">
        {messages.map((message) => (
          <Fragment key={message.id}>
            {message.id === dividerBeforeId && (
              <li className="chat-divider" role="separator" aria-label="New messages">
                <span>New messages</span>
              </li>
            )}
            <ChatLine message={message} />
          </Fragment>
        ))}
      </ul>
    </div>
  );
}
