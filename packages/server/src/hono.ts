/**
 * `@twofold/server/hono`: an `McpServer` as a hono handler, on any runtime hono runs on. Needs
 * the optional peer `hono` (4.x). Every export here is experimental.
 *
 * @packageDocumentation
 */
export type { FrameworkEndpoint } from './frameworks/endpoint';
export { createHonoHandler, type HonoContextLike, type HonoHandler } from './frameworks/hono';
