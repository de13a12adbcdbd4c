import { buildOpenApiDocument, renderDocsPage } from '@kickstand/api-contract';
import { Router } from 'express';

/**
 * GET /api/openapi.json (the contract as OpenAPI 3.1) and GET /api/docs (the same as a readable
 * page, with no script and nothing from the internet). Both are built once, at start-up.
 */
export function apiDocsRoutes(): Router {
  const document = buildOpenApiDocument();
  const json = JSON.stringify(document);
  const page = renderDocsPage(document);
  const router = Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/api/docs', (_req, res) => {
    res.type('text/html').send(page);
  });
  return router;
}
