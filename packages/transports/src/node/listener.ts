/**
 * `toNodeListener`: serves a web-standard handler on `node:http`. The response body is
 * streamed with backpressure (`drain`), and a client that goes away cancels it, which the
 * core sees as the disconnect of that exchange.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyAlreadyRead } from '../http-server/body';
import type { HttpHandler, HttpRequestContext } from '../http-server/types';
import { bodyConsumed, toWebRequest } from './request';

/**
 * A `node:http` request listener, as taken by `http.createServer`.
 *
 * @experimental
 */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Resolves when `res` can take more data, or has closed. */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (response.body === null) {
    res.end();
    return;
  }
  // Streams (SSE) must reach the client before their first event.
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => undefined);
  };
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await writable(res);
    }
  } finally {
    res.off('close', cancel);
  }
  if (res.destroyed) {
    cancel();
    return;
  }
  res.end();
}

/**
 * Options of {@link toNodeListener}.
 *
 * @experimental
 */
export interface NodeListenerOptions {
  /** Receives what the handler or the response stream threw. */
  onerror?: (error: Error) => void;
}

/**
 * Options of {@link handleNodeRequest}.
 *
 * @experimental
 */
export interface NodeRequestOptions extends NodeListenerOptions {
  /**
   * The body a framework already read from `req` (fastify's `request.body`). Absent, and
   * the stream already read: the handler is not called, the answer is a 500 saying why.
   */
  parsedBody?: unknown;
}

function reportAndFail(error: unknown, res: ServerResponse, options: NodeListenerOptions): void {
  options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = 500;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end('Internal Server Error');
}

/**
 * Serves one `node:http` request with a web-standard handler, which gets the connection's
 * local address (for its default Host check) and `parsedBody`. For framework adapters that
 * own the response (fastify's `reply.hijack()`). Resolves when the response has ended.
 *
 * @experimental
 */
export async function handleNodeRequest(
  handler: HttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeRequestOptions = {},
): Promise<void> {
  const { parsedBody } = options;
  const context: HttpRequestContext = { parsedBody };
  const { localAddress, localPort } = req.socket;
  if (localAddress !== undefined && localPort !== undefined) {
    context.localAddress = { address: localAddress, port: localPort };
  }
  try {
    const method = req.method ?? 'GET';
    const unreadable = parsedBody === undefined && method === 'POST' && bodyConsumed(req);
    const response = unreadable
      ? bodyAlreadyRead()
      : await handler(toWebRequest(req, res), context);
    await writeResponse(response, res);
  } catch (error) {
    reportAndFail(error, res, options);
  }
}

/**
 * Adapts a web-standard handler (such as the one `createHttpHandler` returns) to `node:http`,
 * without Express. A handler that throws gets a 500 (or, mid-stream, a reset connection).
 * Behind a body parser (`express.json()`), the parsed `req.body` is passed as `parsedBody`.
 *
 * @experimental
 */
export function toNodeListener(
  handler: HttpHandler,
  options: NodeListenerOptions = {},
): NodeRequestListener {
  return (req, res) => {
    const parsed = (req as IncomingMessage & { body?: unknown }).body;
    // Only a read stream makes `req.body` the body: express.json() sets `{}` for other types.
    const parsedBody = bodyConsumed(req) ? parsed : undefined;
    void handleNodeRequest(handler, req, res, { ...options, parsedBody });
  };
}
