/**
 * `@twofold/server/express` (Node only): an `McpServer` as an Express route handler. Needs the
 * optional peer `express` (5.x). Every export here is experimental.
 *
 * @packageDocumentation
 */
export type { FrameworkEndpoint } from './frameworks/endpoint';
export { createExpressHandler, type ExpressHandler } from './frameworks/express';
