import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { getSocket } from '../../lib/socket';
import type { ChannelEvent, ChatHistoryEvent, ChatMessage, MessageSentEvent } from '../../lib/socket-events';
import { useGetChatHistoryQuery } from './chat-api';
import {
  botMessageSent,
  channelEventReceived,
  channelEventsReceived,
  chatHistoryReceived,
  chatLineReceived,
} from './chat-log-slice';

/**
 * Feeds the chat log from the socket (chat-history, chat-message, message-sent, channel-event)
 * and GET /api/realtime/chat.
 */
export function useChatFeed(): void {
  const dispatch = useAppDispatch();
  useGetChatHistoryQuery();

  useEffect(() => {
    const socket = getSocket();
    const onHistory = (history: ChatHistoryEvent) => {
      dispatch(chatHistoryReceived(history.messages ?? []));
      dispatch(channelEventsReceived(history.events ?? []));
    };
    const onLine = (message: ChatMessage) => dispatch(chatLineReceived(message));
    const onSent = (event: MessageSentEvent) => dispatch(botMessageSent(event));
    const onEvent = (event: ChannelEvent) => dispatch(channelEventReceived(event));
    socket.on('chat-history', onHistory);
    socket.on('chat-message', onLine);
    socket.on('message-sent', onSent);
    socket.on('channel-event', onEvent);
    return () => {
      socket.off('chat-history', onHistory);
      socket.off('chat-message', onLine);
      socket.off('message-sent', onSent);
      socket.off('channel-event', onEvent);
    };
  }, [dispatch]);
}
