import type { ChannelCommands, CommandCatalog } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (games answers them).
export type { CatalogCategory, CatalogCommand, ChannelCommands, CommandCatalog } from '@kickstand/api-contract';

export const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCatalog: build.query<CommandCatalog, void>({
      query: () => '/games/catalog',
      transformResponse: (body: ApiSuccess<CommandCatalog>) => dataOf(body),
    }),
    /** A channel's custom commands (commands answers it, public). */
    getChannelCommands: build.query<ChannelCommands, string>({
      query: (channel) => `/commands/channel/${encodeURIComponent(channel)}`,
      transformResponse: (body: ApiSuccess<ChannelCommands>) => dataOf(body),
    }),
  }),
});

export const { useGetCatalogQuery, useGetChannelCommandsQuery } = catalogApi;
