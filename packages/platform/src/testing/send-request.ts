export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: T;
}

export interface SendOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (for malformed, oversized or signed bodies); JSON content type unless headers say otherwise. */
  rawBody?: Buffer | string;
  /** Sent URL-encoded, as an OAuth token request is. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

function encodeBody(options: SendOptions, headers: Record<string, string>): string | Buffer | undefined {
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return new URLSearchParams(options.form).toString();
  }
  if (options.rawBody === undefined && options.body === undefined) return undefined;
  headers['content-type'] ??= 'application/json';
  return options.rawBody ?? JSON.stringify(options.body);
}

/** A request to a service under test; redirects are answers, not followed. */
export async function sendRequest<T = unknown>(
  url: string,
  method: string,
  options: SendOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = encodeBody(options, headers);
  const response = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as T };
}
