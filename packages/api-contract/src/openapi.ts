import { z } from 'zod';
import { errorBodySchema } from './common';
import { gatewayMessages } from './gateway';
import { isRateLimited, type ApiReply, type ApiRoute } from './route';
import { apiRoutes } from './routes';

/** A JSON Schema (2020-12), as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [key: string]: unknown };

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse>;
  'x-access': ApiRoute['access'];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Partial<Record<ApiRoute['method'], OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }>;
  };
}

/** A zod schema as JSON Schema: requests as they are sent (`input`), replies as they are answered (`output`). */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/api/admin/users/:id/status` → `/api/admin/users/{id}/status`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parametersOf(schema: z.ZodObject | undefined, where: OpenApiParameter['in']): OpenApiParameter[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property as JsonSchema & { description?: string };
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      schema: propertySchema,
      ...(typeof description === 'string' ? { description } : {}),
    };
  });
}

const errorRef = { $ref: '#/components/schemas/ErrorBody' };
const errorResponse = (description: string): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema: errorRef } },
});

function responseOf(reply: ApiReply): OpenApiResponse {
  const headers = reply.headers
    ? Object.fromEntries(
        Object.entries(reply.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
      )
    : undefined;
  const contentType = reply.contentType ?? 'application/json';
  const content =
    reply.schema !== undefined
      ? { [contentType]: { schema: jsonSchemaOf(reply.schema, 'output') } }
      : contentType === 'text/html'
        ? { [contentType]: { schema: { type: 'string' } } }
        : undefined;
  return { description: reply.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
}

/** The failures every route of its kind may answer, then the route's own (which win on the same status). */
function errorsOf(route: ApiRoute): Record<string, OpenApiResponse> {
  const errors: Record<number, string> = {};
  if (route.params || route.query || route.body || route.headers) errors[400] = 'The request is not valid';
  if (route.access !== 'public') errors[401] = 'Not signed in, or the session ended';
  if (route.access === 'admin') errors[403] = 'Administrator access required';
  if (route.body) {
    errors[413] = 'Request body is too large';
    errors[415] = 'Unsupported request body encoding';
  }
  for (const [status, description] of Object.entries(route.errors ?? {})) {
    errors[Number(status)] = errors[Number(status)] ? `${errors[Number(status)]}; ${description}` : description!;
  }
  if (isRateLimited(route)) {
    const limited = gatewayMessages.tooManyRequestsDescription;
    errors[429] = errors[429] ? `${errors[429]}; ${limited}` : limited;
  }
  errors[500] ??= 'Internal server error';
  const responses = Object.fromEntries(Object.entries(errors).map(([status, text]) => [status, errorResponse(text)]));
  // Node's HTTP server refuses a request line and headers over 16 KB itself, before any route (no body)
  if (route.query) responses['431'] = { description: 'Request URL or headers too large' };
  return responses;
}

function operationOf(route: ApiRoute): OpenApiOperation {
  const responses: Record<string, OpenApiResponse> = errorsOf(route);
  for (const reply of [route.reply, ...(route.otherReplies ?? [])]) responses[String(reply.status)] = responseOf(reply);
  return {
    operationId: `${route.method}${route.path.replace(/^\/api/, '').replace(/[^A-Za-z0-9]+(.)?/g, (_all, next?: string) => (next ?? '').toUpperCase())}`,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.owner],
    security: route.access === 'public' ? [] : [{ bearer: [] }],
    parameters: [
      ...parametersOf(route.params, 'path'),
      ...parametersOf(route.query, 'query'),
      ...parametersOf(route.headers, 'header'),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses,
    'x-access': route.access,
  };
}

/** The OpenAPI 3.1 document of the product's HTTP API, generated from the contract's routes. */
export function buildOpenApiDocument(routes: readonly ApiRoute[] = apiRoutes): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operationOf(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kickstand API',
      version: '1.0.0',
      description:
        'The HTTP API behind the Kickstand dashboard. Every reply is JSON { success, data?, message? }; a ' +
        'failure is { success: false, error, details? }. Signed-in calls carry Authorization: Bearer <token> ' +
        '(from POST /api/platform/login). Access: public, user (any signed-in user) or admin (SUPER_ADMIN).',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { ErrorBody: jsonSchemaOf(errorBodySchema, 'output') },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The token of POST /api/platform/login (or /register)',
        },
      },
    },
  };
}
