// A small fake of fetch for the API layer (lib/api.ts calls fetch(url, init) and reads status, ok and text()).

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
  headers: Record<string, string>;
  body: unknown;
}

/** `{ success: true, data }` with status 200 (201 for a POST if given). */
export const ok = (data?: unknown, extra: Record<string, unknown> = {}, status = 200): FakeResponse => ({
  status,
  body: { success: true, data, ...extra },
});

export const fail = (status: number, error: string): FakeResponse => ({ status, body: { success: false, error } });

/**
 * Installs a fake global fetch answering from `routes`, keyed "METHOD /api/path" (query string
 * ignored); unknown routes answer 404. Returns the recorded requests; `routes` may be changed later.
 */
export function installFakeFetch(routes: Record<string, FakeRoute> = {}) {
  const requests: RecordedRequest[] = [];
  const fetchMock = jest.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = (init.headers ?? {}) as Record<string, string>;
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const route = routes[`${method} ${url.pathname}`];
    const answer =
      route === undefined ? fail(404, 'Not found') : typeof route === 'function' ? await route(request) : route;
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return { status, ok: status >= 200 && status < 300, text: async () => text } as unknown as Response;
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return {
    fetchMock,
    requests,
    routes,
    /** Requests for one "METHOD /path". */
    callsTo: (key: string) => requests.filter((request) => `${request.method} ${request.path}` === key),
  };
}
