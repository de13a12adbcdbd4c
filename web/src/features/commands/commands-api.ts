import type {
  AddCommandBody,
  Command,
  RemoveCommandBody,
  ResponseVariable,
  UpdateCommandBody,
} from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';
import { getSocket } from '../../lib/socket';

// The shapes are the HTTP contract's (commands answers them).
export type { Command };
export type CommandVariable = ResponseVariable;

export const commandsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCommands: build.query<Command[], void>({
      query: () => '/commands',
      transformResponse: (body: ApiSuccess<Command[]>) => dataOf(body),
      providesTags: ['Commands'],
      // command-added and command-removed (from any tab or device) reload the list (spec §7)
      async onCacheEntryAdded(_arg, { cacheEntryRemoved, dispatch }) {
        const socket = getSocket();
        const reload = () => dispatch(api.util.invalidateTags(['Commands']));
        socket.on('command-added', reload);
        socket.on('command-removed', reload);
        await cacheEntryRemoved;
        socket.off('command-added', reload);
        socket.off('command-removed', reload);
      },
    }),
    addCommand: build.mutation<void, AddCommandBody>({
      query: (body) => ({ url: '/commands', method: 'POST', body }),
      invalidatesTags: ['Commands', 'BotStatus'],
    }),
    /** Edit in place: `name` is the command's name now; `changes` what changes (a rename included). */
    updateCommand: build.mutation<void, { name: string; changes: UpdateCommandBody }>({
      query: ({ name, changes }) => ({ url: `/commands/${encodeURIComponent(name)}`, method: 'PATCH', body: changes }),
      invalidatesTags: ['Commands', 'BotStatus'],
    }),
    removeCommand: build.mutation<void, RemoveCommandBody>({
      query: (body) => ({ url: '/commands', method: 'DELETE', body }),
      invalidatesTags: ['Commands', 'BotStatus'],
    }),
    getCommandVariables: build.query<CommandVariable[], void>({
      query: () => '/commands/variables',
      transformResponse: (body: ApiSuccess<CommandVariable[]>) => dataOf(body),
    }),
  }),
});

export const {
  useGetCommandsQuery,
  useAddCommandMutation,
  useUpdateCommandMutation,
  useRemoveCommandMutation,
  useGetCommandVariablesQuery,
} = commandsApi;
