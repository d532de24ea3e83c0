/** Serving a server on this process's stdin/stdout (Node). */
import type { Transport } from '@twofold/protocol/experimental';
import { StdioServerTransport, type StdioServerTransportOptions } from '@twofold/transports/stdio';
import type { ServedServer } from '../core/served-server';
import {
  type ServedConnection,
  type ServeTransportOptions,
  serveTransport,
} from '../serve/serve-transport';

/**
 * Options of {@link serveStdio}: the stdio transport's (streams, message size cap, output
 * high-water mark, grace period at end of input) and the router's, or a ready transport to
 * serve on instead.
 *
 * @experimental
 */
export interface ServeStdioOptions extends StdioServerTransportOptions, ServeTransportOptions {
  /** Serve on this transport instead of the process streams. */
  transport?: Transport;
}

/**
 * Serves `server` on stdin/stdout (or `options.input`/`output`, or `options.transport`) in
 * both eras: modern requests statelessly, an `initialize` opens a legacy session. Resolves
 * once serving has started. When the input ends, open listens get their final result and
 * requests in flight are answered (within `inputEndGraceMs`), then the connection ends. While
 * the client does not read the output, input is not read either (`outputHighWaterMarkBytes`).
 * Nothing else may write to stdout: log to stderr.
 *
 * @experimental
 */
export function serveStdio(
  server: ServedServer,
  options: ServeStdioOptions = {},
): Promise<ServedConnection> {
  const { transport, requestTimeoutMs, auth, onerror, ...stdio } = options;
  return serveTransport(server, transport ?? new StdioServerTransport(stdio), {
    requestTimeoutMs,
    auth,
    onerror,
  });
}
