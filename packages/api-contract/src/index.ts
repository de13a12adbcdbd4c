// @kickstand/api-contract: the HTTP contract of every /api route (README.md says how to add one).
export * from './common';
export * from './route';
export * from './auth';
export * from './admin';
export * from './bot';
export * from './commands';
export * from './games';
export * from './realtime';
export * from './analytics';
export * from './kick';
export * from './delivery-health';
export * from './dead-letters';
export * from './webhooks';
export * from './gateway';
export { apiRoutes, contractRouteKeys } from './routes';
export { buildOpenApiDocument, openApiPath, type OpenApiDocument, type OpenApiOperation } from './openapi';
export { renderDocsPage } from './docs-page';
