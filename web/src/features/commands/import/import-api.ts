import type { ImportApplyBody, ImportPreview, ImportPreviewBody, ImportResult } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../../lib/api';

// The shapes are the HTTP contract's (commands answers them).
export type { ImportPreview, ImportResult };

export const commandImportApi = api.injectEndpoints({
  endpoints: (build) => ({
    previewImport: build.mutation<ImportPreview, ImportPreviewBody>({
      query: (body) => ({ url: '/commands/import/preview', method: 'POST', body }),
      transformResponse: (body: ApiSuccess<ImportPreview>) => dataOf(body),
    }),
    applyImport: build.mutation<ImportResult, ImportApplyBody>({
      query: (body) => ({ url: '/commands/import', method: 'POST', body }),
      transformResponse: (body: ApiSuccess<ImportResult>) => dataOf(body),
    }),
  }),
});

export const { usePreviewImportMutation, useApplyImportMutation } = commandImportApi;
