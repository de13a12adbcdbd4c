import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { getSocket } from '../../lib/socket';
import type { ChatHistoryEvent, ChatMessage, MessageSentEvent } from '../../lib/socket-events';
import { useGetChatHistoryQuery } from './chat-api';
import { botMessageSent, chatHistoryReceived, chatLineReceived } from './chat-log-slice';

/** Feeds the chat log from the socket (chat-history, chat-message, message-sent) and GET /api/realtime/chat. */
export function useChatFeed(): void {
  const dispatch = useAppDispatch();
  useGetChatHistoryQuery();

  useEffect(() => {
    const socket = getSocket();
    const onHistory = (event: ChatHistoryEvent) => dispatch(chatHistoryReceived(event.messages ?? []));
    const onLine = (message: ChatMessage) => dispatch(chatLineReceived(message));
    const onSent = (event: MessageSentEvent) => dispatch(botMessageSent(event));
    socket.on('chat-history', onHistory);
    socket.on('chat-message', onLine);
    socket.on('message-sent', onSent);
    return () => {
      socket.off('chat-history', onHistory);
      socket.off('chat-message', onLine);
      socket.off('message-sent', onSent);
    };
  }, [dispatch]);
}
