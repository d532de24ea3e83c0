/**
 * `@twofold/server/fastify` (Node only): an `McpServer` as a fastify route handler. Needs the
 * optional peer `fastify` (5.x). Every export here is experimental.
 *
 * @packageDocumentation
 */
export type { FrameworkEndpoint } from './frameworks/endpoint';
export {
  createFastifyHandler,
  type FastifyHandler,
  type FastifyReplyLike,
  type FastifyRequestLike,
} from './frameworks/fastify';
