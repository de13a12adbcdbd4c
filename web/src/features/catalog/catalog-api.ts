import type { CommandCatalog } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (games answers them).
export type { CatalogCategory, CatalogCommand, CommandCatalog } from '@kickstand/api-contract';

export const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCatalog: build.query<CommandCatalog, void>({
      query: () => '/games/catalog',
      transformResponse: (body: ApiSuccess<CommandCatalog>) => dataOf(body),
    }),
  }),
});

export const { useGetCatalogQuery } = catalogApi;
