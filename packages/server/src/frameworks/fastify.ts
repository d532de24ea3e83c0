/** The endpoint as a fastify route handler (Node), after fastify's own body parsing. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleNodeRequest } from '@twofold/transports/node';
import type { ServedServer } from '../core/served-server';
import type { ServerHttpHandlerOptions } from '../serve/http-handler';
import { type FrameworkEndpoint, frameworkEndpoint } from './endpoint';

/**
 * The part of fastify's request the handler reads: the node request and the parsed body.
 *
 * @experimental
 */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly body?: unknown;
}

/**
 * The part of fastify's reply the handler uses: it takes the response over (`hijack`) and
 * streams its answer (SSE included) to the node response.
 *
 * @experimental
 */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  hijack(): unknown;
}

/**
 * A fastify route handler, typed structurally so this package needs no fastify types.
 *
 * @experimental
 */
export type FastifyHandler = FrameworkEndpoint<
  (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<void>
>;

/**
 * Serves `server` (both eras) as a fastify route handler. fastify's default JSON parser reads
 * the body; the handler takes `request.body` and writes the answer itself. Mount it for GET,
 * POST and DELETE (`app.all`): legacy sessions use all three.
 *
 * @example
 * ```ts
 * const app = Fastify();
 * app.all('/mcp', createFastifyHandler(server));
 * await app.listen({ host: '127.0.0.1', port: 3000 });
 * ```
 * @throws TypeError when `auth` is incomplete.
 * @experimental
 */
export function createFastifyHandler(
  server: ServedServer,
  options: ServerHttpHandlerOptions = {},
): FastifyHandler {
  return frameworkEndpoint(server, options, (handler) => async (request, reply) => {
    reply.hijack();
    await handleNodeRequest(handler, request.raw, reply.raw, {
      onerror: options.onerror,
      parsedBody: request.body,
    });
  });
}
