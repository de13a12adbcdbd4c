import { api, dataOf, type ApiSuccess } from '../../lib/api';

export interface CatalogCommand {
  /** With the $ prefix, e.g. $hero. */
  name: string;
  description: string;
  example: string;
  rules?: string[];
}

export interface CatalogCategory {
  name: string;
  commands: CatalogCommand[];
}

export interface CommandCatalog {
  categories: CatalogCategory[];
}

export const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCatalog: build.query<CommandCatalog, void>({
      query: () => '/games/catalog',
      transformResponse: (body: ApiSuccess<CommandCatalog>) => dataOf(body),
    }),
  }),
});

export const { useGetCatalogQuery } = catalogApi;
