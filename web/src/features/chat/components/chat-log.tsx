import { Fragment, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ChannelEvent, ChatMessage } from '../../../lib/socket-events';
import { isNearBottom } from '../chat-format';
import { lineId, mergeChatLines } from '../chat-lines';
import { ChannelEventLine } from './channel-event-line';
import { ChatLine } from './chat-line';

/**
 * The scrolling list of chat lines, with the channel's event lines (gifts, redemptions, follows,
 * subscriptions) between them by time. A new line scrolls to the bottom when the reader is within
 * 100 px of it; otherwise a "New messages" divider marks where the unread lines start (it goes once
 * a line arrives while the reader is at the bottom again).
 */
export function ChatLog({
  messages,
  events = [],
}: {
  messages: readonly ChatMessage[];
  events?: readonly ChannelEvent[];
}) {
  const lines = useMemo(() => mergeChatLines(messages, events), [messages, events]);
  const listRef = useRef<HTMLDivElement>(null);
  const isNearBottomRef = useRef(true);
  const lastIdRef = useRef<string | null>(null);
  const [dividerBeforeId, setDividerBeforeId] = useState<string | null>(null);

  useLayoutEffect(() => {
    const last = lines[lines.length - 1];
    const previousLastId = lastIdRef.current;
    if (!last || lineId(last) === previousLastId) return;
    lastIdRef.current = lineId(last);
    const list = listRef.current;
    if (isNearBottomRef.current || previousLastId === null) {
      if (list) list.scrollTop = list.scrollHeight;
      setDividerBeforeId(null);
    } else if (dividerBeforeId === null || !lines.some((line) => lineId(line) === dividerBeforeId)) {
      const previousIndex = lines.findIndex((line) => lineId(line) === previousLastId);
      setDividerBeforeId(lineId(lines[previousIndex + 1] ?? last));
    }
  }, [lines, dividerBeforeId]);

  const onScroll = () => {
    if (listRef.current) isNearBottomRef.current = isNearBottom(listRef.current);
  };

  if (lines.length === 0) {
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
        {lines.map((line) => (
          <Fragment key={lineId(line)}>
            {lineId(line) === dividerBeforeId && (
              <li className="chat-divider" role="separator" aria-label="New messages">
                <span>New messages</span>
              </li>
            )}
            {line.kind === 'message' ? <ChatLine message={line.message} /> : <ChannelEventLine event={line.event} />}
          </Fragment>
        ))}
      </ul>
    </div>
  );
}
