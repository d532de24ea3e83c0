/** The endpoint as an Express handler (Node), behind `express.json()` or without it. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeListener } from '@twofold/transports/node';
import type { ServedServer } from '../core/served-server';
import type { ServerHttpHandlerOptions } from '../serve/http-handler';
import { type FrameworkEndpoint, frameworkEndpoint } from './endpoint';

/**
 * An Express route handler. Typed on `node:http` (Express's request and response extend it), so
 * this package needs no Express types.
 *
 * @experimental
 */
export type ExpressHandler = FrameworkEndpoint<(req: IncomingMessage, res: ServerResponse) => void>;

/**
 * Serves `server` (both eras) as an Express route handler. A body `express.json()` already
 * parsed is used as it is (`req.body`); without a parser the handler reads the stream itself.
 * Mount it for GET, POST and DELETE (`app.all`): legacy sessions use all three. With `auth`,
 * also route `/.well-known/oauth-protected-resource<path>` to it.
 *
 * @example
 * ```ts
 * const app = express();
 * app.use(express.json());
 * app.all('/mcp', createExpressHandler(server));
 * app.listen(3000, '127.0.0.1');
 * ```
 * @throws TypeError when `auth` is incomplete.
 * @experimental
 */
export function createExpressHandler(
  server: ServedServer,
  options: ServerHttpHandlerOptions = {},
): ExpressHandler {
  return frameworkEndpoint(server, options, (handler) =>
    toNodeListener(handler, { onerror: options.onerror }),
  );
}
