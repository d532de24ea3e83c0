/**
 * `@twofold/server/next`: an `McpServer` as Next.js App Router route handlers (`GET`, `POST`,
 * `DELETE`). Needs the optional peer `next` (15.x or 16.x). Every export here is experimental.
 *
 * @packageDocumentation
 */
export type { FrameworkEndpoint } from './frameworks/endpoint';
export {
  createNextRouteHandlers,
  type NextRouteHandler,
  type NextRouteHandlers,
} from './frameworks/next';
