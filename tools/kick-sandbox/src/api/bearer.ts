import type { IncomingMessage } from 'node:http';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), if any. */
export function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}
