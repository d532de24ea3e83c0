/** What every framework adapter shares: one long-lived endpoint, and its `close`. */
import type { HttpServerHandler } from '@twofold/transports/http-server';
import type { ServedServer } from '../core/served-server';
import { createServerHttpHandler, type ServerHttpHandlerOptions } from '../serve/http-handler';

/**
 * A framework's handler of an MCP endpoint, plus `close()`, which ends open subscriptions and
 * legacy sessions (call it when the app shuts down).
 *
 * @experimental
 */
export type FrameworkEndpoint<Handler> = Handler & { close(): Promise<void> };

/** Builds the endpoint of `server` once and lets `mount` wrap it in a framework's shape. */
export function frameworkEndpoint<Handler extends object>(
  server: ServedServer,
  options: ServerHttpHandlerOptions,
  mount: (handler: HttpServerHandler) => Handler,
): FrameworkEndpoint<Handler> {
  const handler = createServerHttpHandler(server, options);
  return Object.assign(mount(handler), { close: () => handler.close() });
}
