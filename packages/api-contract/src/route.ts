import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call: anyone, a signed-in user (bearer token), or a super administrator. */
export type Access = 'public' | 'user' | 'admin';

/** Who answers a route: the gateway itself, or the service it hands the request to. */
export const routeOwners = ['gateway', 'auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime'] as const;
export type RouteOwner = (typeof routeOwners)[number];

export interface ApiReply {
  status: number;
  description: string;
  /** The JSON body; none for a 204 or a redirect. */
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: 'application/json' | 'text/html';
  /** Response headers worth knowing (e.g. Location of a redirect), name → description. */
  headers?: Readonly<Record<string, string>>;
}

/** One HTTP route of the product: what it takes, what it answers, who may call it. */
export interface ApiRoute {
  method: HttpMethod;
  /** Express style: `/api/admin/users/:id/status`. */
  path: string;
  owner: RouteOwner;
  access: Access;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads (beyond Authorization). */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The successful answer, then any other answer with a body of its own. */
  reply: ApiReply;
  otherReplies?: readonly ApiReply[];
  /**
   * The failures particular to this route, status → when. Every route may also answer 400 for a
   * request that fails its schemas, 401/403 by its access, 413/415 for a body, and 500.
   */
  errors?: Readonly<Partial<Record<number, string>>>;
  /**
   * Whether the gateway's per-address limit applies (429). Default: every route the gateway hands
   * to a service; `false` for Kick's webhook, which we must never slow down (its path has no params).
   */
  isRateLimited?: false;
}

/** Whether the gateway's per-address limit applies to the route: every route it hands to a service, unless opted out. */
export function isRateLimited(route: ApiRoute): boolean {
  return route.owner !== 'gateway' && route.isRateLimited !== false;
}
