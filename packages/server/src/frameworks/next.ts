/** The endpoint as Next.js App Router route handlers (`app/<path>/route.ts`). */
import type { ServedServer } from '../core/served-server';
import type { ServerHttpHandlerOptions } from '../serve/http-handler';
import { type FrameworkEndpoint, frameworkEndpoint } from './endpoint';

/**
 * One Next.js route handler. Next's `NextRequest` is a `Request`, so this package needs no
 * Next types.
 *
 * @experimental
 */
export type NextRouteHandler = (request: Request) => Promise<Response>;

/**
 * The route handlers of an MCP endpoint, to export from a `route.ts`.
 *
 * @experimental
 */
export type NextRouteHandlers = FrameworkEndpoint<{
  readonly GET: NextRouteHandler;
  readonly POST: NextRouteHandler;
  readonly DELETE: NextRouteHandler;
}>;

/**
 * Serves `server` (both eras) as Next.js route handlers. Next does not say which address a
 * connection arrived on, so the Host check is off unless `allowedHosts` is set; legacy sessions
 * live in this process's memory (`legacy: { stateless: true }` where requests may reach
 * another instance).
 *
 * @example
 * ```ts
 * // app/mcp/route.ts
 * export const { GET, POST, DELETE } = createNextRouteHandlers(server, {
 *   allowedHosts: ['localhost:3000'],
 * });
 * ```
 * @throws TypeError when `auth` is incomplete.
 * @experimental
 */
export function createNextRouteHandlers(
  server: ServedServer,
  options: ServerHttpHandlerOptions = {},
): NextRouteHandlers {
  return frameworkEndpoint(server, options, (handler) => {
    // Next passes `{ params }` as the second argument: it is not the handler's context.
    const route: NextRouteHandler = (request) => handler(request);
    return { GET: route, POST: route, DELETE: route };
  });
}
