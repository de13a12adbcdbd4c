// The SPA's network fake: MSW answers the requests lib/api.ts sends with fetch, from a route map.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export interface FakeResponse {
  status?: number;
  body?: unknown;
}

export type FakeRoute = FakeResponse | ((request: RecordedRequest) => FakeResponse | Promise<FakeResponse>);

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  /** Lower-case names, as fetch's Headers give them. */
  headers: Record<string, string>;
  body: unknown;
}

/** `{ success: true, data }` with status 200 (201 for a POST if given). */
export const ok = (data?: unknown, extra: Record<string, unknown> = {}, status = 200): FakeResponse => ({
  status,
  body: { success: true, data, ...extra },
});

export const fail = (status: number, error: string): FakeResponse => ({ status, body: { success: false, error } });

// One server per test file, started by the first installFakeFetch; a request nobody answers is an error.
const server = setupServer();
let isListening = false;
afterAll(() => {
  if (isListening) server.close();
  isListening = false;
});

async function recorded(request: Request): Promise<RecordedRequest> {
  const url = new URL(request.url);
  const text = await request.clone().text();
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(request.headers),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

/**
 * Answers every request from `routes`, keyed "METHOD /api/path" (query string ignored); unknown
 * routes answer 404. Returns the recorded requests; `routes` may be changed later (one catch-all MSW
 * handler reads the map on each request). `fetchMock` spies on fetch, to read what it was called with.
 */
export function installFakeFetch(routes: Record<string, FakeRoute> = {}) {
  const requests: RecordedRequest[] = [];
  if (!isListening) server.listen({ onUnhandledRequest: 'error' });
  isListening = true;
  server.resetHandlers(
    http.all('*', async ({ request }) => {
      const seen = await recorded(request);
      requests.push(seen);
      const route = routes[`${seen.method} ${seen.path}`];
      const answer =
        route === undefined ? fail(404, 'Not found') : typeof route === 'function' ? await route(seen) : route;
      const status = answer.status ?? 200;
      // a 204 or 304 has no body; otherwise an empty body is an empty string, as a server sends it
      if (answer.body === undefined) return new HttpResponse(status === 204 ? null : '', { status });
      return HttpResponse.json(answer.body, { status });
    }),
  );
  const fetchMock = jest.spyOn(globalThis, 'fetch');
  return {
    fetchMock,
    requests,
    routes,
    /** Requests for one "METHOD /path". */
    callsTo: (key: string) => requests.filter((request) => `${request.method} ${request.path}` === key),
  };
}
