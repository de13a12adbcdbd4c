/** A route an Express app answers: `GET /api/commands`. */
export interface RegisteredRoute {
  method: string;
  path: string;
}

interface LayerLike {
  route?: { path: unknown; methods: Record<string, boolean | undefined> };
  handle?: unknown;
}

function stackOf(handle: unknown): readonly LayerLike[] | undefined {
  const stack = (handle as { stack?: unknown } | undefined)?.stack;
  return Array.isArray(stack) ? (stack as LayerLike[]) : undefined;
}

function collect(stack: readonly LayerLike[], into: RegisteredRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      for (const [method, isOn] of Object.entries(layer.route.methods)) {
        if (isOn && method !== '_all') into.push({ method: method.toUpperCase(), path: String(layer.route.path) });
      }
      continue;
    }
    const nested = stackOf(layer.handle);
    if (nested) collect(nested, into);
  }
}

/**
 * The routes registered on Express apps (Express 5's router stacks, routers used without a mount
 * path included), for tests that compare them with the HTTP contract. An app mounted inside
 * another (`app.use(otherApp)`) is not reachable from its parent: pass it as well.
 */
export function registeredRoutes(...apps: readonly { router: unknown }[]): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const app of apps) collect(stackOf(app.router) ?? [], routes);
  return routes;
}

/** `METHOD /path` of the `/api/` routes registered on the apps, sorted (to compare with the contract's). */
export function apiRouteKeys(...apps: readonly { router: unknown }[]): string[] {
  return registeredRoutes(...apps)
    .filter((route) => route.path.startsWith('/api/'))
    .map((route) => `${route.method} ${route.path}`)
    .sort();
}
