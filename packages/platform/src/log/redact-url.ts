/**
 * Query parameters that carry a secret: Kick's one-time OAuth `code` (with `state`, it links a
 * Kick account) and any token. Their values never reach a log line.
 */
const secretQueryKeys: ReadonlySet<string> = new Set(['code', 'state', 'code_verifier', 'token', 'access_token']);

export const redacted = '[redacted]';

/** The URL as it may be logged: path and query, secret parameters' values replaced. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  let isChanged = false;
  for (const key of new Set(params.keys())) {
    if (!secretQueryKeys.has(key.toLowerCase())) continue;
    params.set(key, redacted);
    isChanged = true;
  }
  return isChanged ? `${url.slice(0, queryStart)}?${params.toString()}` : url;
}

/** A parsed query (Express's req.query) with the secret parameters' values replaced. */
export function redactQuery(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  const copy: Record<string, unknown> = { ...(query as Record<string, unknown>) };
  for (const key of Object.keys(copy)) if (secretQueryKeys.has(key.toLowerCase())) copy[key] = redacted;
  return copy;
}
