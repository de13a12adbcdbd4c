import type { ChatHistory } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';
import { channelEventsReceived, chatHistoryReceived } from './chat-log-slice';

export const chatApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The last chat lines, merged into the chat log (the socket's chat-history does the same on connect). */
    getChatHistory: build.query<ChatHistory, void>({
      query: () => '/realtime/chat',
      transformResponse: (body: ApiSuccess<ChatHistory>) => dataOf(body),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(chatHistoryReceived(data.messages));
          dispatch(channelEventsReceived(data.events ?? []));
        } catch {
          // the socket's chat-history covers it
        }
      },
    }),
  }),
});

export const { useGetChatHistoryQuery } = chatApi;
