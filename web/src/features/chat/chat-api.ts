import { api, dataOf, type ApiSuccess } from '../../lib/api';
import type { ChatMessage } from '../../lib/socket-events';
import { chatHistoryReceived } from './chat-log-slice';

export const chatApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The last chat lines, merged into the chat log (the socket's chat-history does the same on connect). */
    getChatHistory: build.query<{ messages: ChatMessage[] }, void>({
      query: () => '/realtime/chat',
      transformResponse: (body: ApiSuccess<{ messages: ChatMessage[] }>) => dataOf(body),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(chatHistoryReceived(data.messages));
        } catch {
          // the socket's chat-history covers it
        }
      },
    }),
  }),
});

export const { useGetChatHistoryQuery } = chatApi;
