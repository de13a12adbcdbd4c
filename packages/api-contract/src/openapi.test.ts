import { commandMessages, commandNameSchema, commandResponseSchema } from './commands';
import { registerBodySchema } from './auth';
import { buildOpenApiDocument, openApiPath } from './openapi';
import { apiRoutes } from './routes';

const document = buildOpenApiDocument();

describe('the route list', () => {
  test('when two routes share a method and path, then the list is wrong (none do)', () => {
    const keys = apiRoutes.map((route) => `${route.method} ${route.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  test.each(apiRoutes.map((route) => [route.method, route.path, route] as const))(
    'when %s %s names path parameters, then its params schema has exactly those',
    (_method, path, route) => {
      const inPath = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((found) => found[1]).sort();
      expect(Object.keys(route.params?.shape ?? {}).sort()).toEqual(inPath);
    },
  );
});

describe('buildOpenApiDocument', () => {
  test('when it is built, then it is OpenAPI 3.1 with one operation per route, ids unique', () => {
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method} ${path}`, id: operation!.operationId })),
    );
    expect(operations.map((operation) => operation.key).sort()).toEqual(
      apiRoutes.map((route) => `${route.method} ${openApiPath(route.path)}`).sort(),
    );
    const ids = operations.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('when a route takes a body and needs a sign-in, then it documents the body, 400, 401 and the reply', () => {
    const operation = document.paths['/api/commands']!.post!;
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(operation.requestBody?.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { command: { type: 'string' }, response: { type: 'string' } },
      additionalProperties: false,
    });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '409', '500']));
    expect(operation.responses['400']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/ErrorBody',
    });
  });

  test('when a route has path and query parameters, then each is a parameter with its JSON Schema', () => {
    const operation = document.paths['/api/admin/users']!.get!;
    expect(operation.parameters.find((parameter) => parameter.name === 'limit')).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { default: 20, type: 'integer', minimum: 1, maximum: 200 },
    });
    const patch = document.paths['/api/admin/users/{id}/status']!.patch!;
    expect(patch.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 128 } },
    ]);
  });
});

describe('the forms’ schemas', () => {
  test('when a command name breaks a rule, then the first issue is the spec’s message', () => {
    expect(commandNameSchema.safeParse('two words').error?.issues[0]?.message).toBe(commandMessages.singleWord);
    expect(commandNameSchema.safeParse(' hug ').success).toBe(true);
    expect(commandNameSchema.safeParse('x'.repeat(51)).error?.issues[0]?.message).toBe(commandMessages.nameTooLong);
    expect(commandResponseSchema.safeParse(' ').error?.issues[0]?.message).toBe('Response text is required.');
  });

  test('when a password breaks the spec’s rules, then the first broken rule is the message', () => {
    const parsed = registerBodySchema.safeParse({ email: 'a@b.co', username: 'abc', password: 'abcdefgh' });
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      'Password must contain at least one uppercase letter',
    ]);
  });
});
