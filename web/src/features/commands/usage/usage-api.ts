import type { CommandStats } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../../lib/api';

export type { CommandStats };

export const commandStatsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCommandStats: build.query<CommandStats[], void>({
      query: () => '/commands/usage',
      transformResponse: (body: ApiSuccess<CommandStats[]>) => dataOf(body),
      // reloaded with the list (a command added, removed or imported)
      providesTags: ['Commands'],
    }),
  }),
});

export const { useGetCommandStatsQuery } = commandStatsApi;
