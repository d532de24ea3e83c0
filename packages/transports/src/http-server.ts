/**
 * `@twofold/transports/http-server`: the Streamable HTTP server core on web-standard `Request`
 * and `Response`, for any runtime (Node through `serve` or `toNodeListener` from `./node`, Bun,
 * Deno, Workers, framework routes): `createHttpHandler`, `HttpServerTransport`, the event store
 * for resumable streams, and `guardHandler`. An entry of its own so that a stdio program does
 * not load it. Every export here is experimental.
 *
 * @example
 * ```ts
 * import { createResultResponse } from '@twofold/protocol/experimental';
 * import { createHttpHandler } from '@twofold/transports/http-server';
 *
 * // A modern endpoint as a web handler, (Request) => Promise<Response>, for any runtime.
 * const handler = createHttpHandler({
 *   modern: async (message, exchange) => {
 *     if ('id' in message) await exchange.respond(createResultResponse(message.id, {}));
 *   },
 * });
 * ```
 *
 * @packageDocumentation
 */
export * from './http-server/index';
