/** A check in front of a handler that keeps the handler's core entry (see `CoreHandler`). */
import { type IncomingRequest, WebIncoming } from './incoming';
import { type Answer, toResponse } from './responses';
import type { CoreHandler, HttpHandler, HttpRequestContext } from './types';

/**
 * A check run before a handler: an answer to send instead, or `undefined` to go on.
 *
 * @experimental
 */
export type HandlerCheck = (
  request: IncomingRequest,
  context: HttpRequestContext | undefined,
) => Answer | undefined | Promise<Answer | undefined>;

/**
 * `handler` with `check` run first on every request, through each of its entries: the web one,
 * and the core's when the handler has it, so node:http still skips web `Request`/`Response`
 * objects. `contextFor` changes what the handler is told of the request (default: as it
 * came). `close`, when the handler has one, is kept.
 *
 * @example
 * ```ts
 * const guarded = guardHandler(createHttpHandler(options), (request) =>
 *   request.header('x-api-key') === apiKey ? undefined : new Response(null, { status: 401 }),
 * );
 * ```
 * @experimental
 */
export function guardHandler<H extends HttpHandler & { answer?: CoreHandler }>(
  handler: H,
  check: HandlerCheck,
  contextFor: (context: HttpRequestContext | undefined) => HttpRequestContext | undefined = (
    context,
  ) => context,
): HttpHandler & Pick<H, Extract<keyof H, 'answer' | 'close'>> {
  const web = async (request: Request, context?: HttpRequestContext) => {
    const refusal = await check(new WebIncoming(request), context);
    return refusal === undefined ? handler(request, contextFor(context)) : toResponse(refusal);
  };
  const core = handler.answer;
  const answer: CoreHandler | undefined =
    core &&
    (async (request, context) =>
      (await check(request, context)) ?? core(request, contextFor(context)));
  const close = (handler as { close?: unknown }).close;
  return Object.assign(
    web,
    close === undefined ? {} : { close },
    answer === undefined ? {} : { answer },
  ) as HttpHandler & Pick<H, Extract<keyof H, 'answer' | 'close'>>;
}
