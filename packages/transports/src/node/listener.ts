/**
 * `toNodeListener`: serves a web-standard handler on `node:http`. The response body is
 * streamed with backpressure (`drain`), and a client that goes away cancels it, which the
 * core sees as the disconnect of that exchange.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpHandler } from '../http-server/types';
import { toWebRequest } from './request';

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
 * Adapts a web-standard handler (such as the one `createHttpHandler` returns) to `node:http`,
 * without Express. A handler that throws gets a 500 (or, mid-stream, a reset connection).
 *
 * @experimental
 */
export function toNodeListener(
  handler: HttpHandler,
  options: NodeListenerOptions = {},
): NodeRequestListener {
  return (req, res) => {
    const run = async () => writeResponse(await handler(toWebRequest(req, res)), res);
    run().catch((error: unknown) => {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.statusCode = 500;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('Internal Server Error');
    });
  };
}
