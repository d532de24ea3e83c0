/**
 * `toNodeListener`: serves a web-standard handler on `node:http`. A handler with the core's
 * entry (`createHttpHandler`'s) is called with the node request itself, and its own replies
 * are written as they are: a JSON answer in one write. A streamed body goes out with
 * backpressure (`drain`), and a client that goes away cancels it, which the core sees as the
 * disconnect of that exchange.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyAlreadyRead } from '../http-server/body';
import { type Answer, Reply } from '../http-server/responses';
import type { CoreHandler, HttpHandler, HttpRequestContext } from '../http-server/types';
import { bodyConsumed, NodeIncoming, toWebRequest } from './request';

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

/** Writes the core's reply: a text body (or none) with its head in one write, else a stream. */
function writeReply(reply: Reply, res: ServerResponse): Promise<void> {
  const { status, headers, body } = reply;
  if (body === null || typeof body === 'string') {
    headers['Content-Length'] = String(body === null ? 0 : Buffer.byteLength(body));
    res.writeHead(status, headers);
    res.end(body ?? undefined);
    return Promise.resolve();
  }
  res.writeHead(status, headers);
  return writeStream(body, res);
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
  await writeStream(response.body, res);
}

function writeAnswer(answer: Answer, res: ServerResponse): Promise<void> {
  return answer instanceof Reply ? writeReply(answer, res) : writeResponse(answer, res);
}

/** Streams `body` after the head, with backpressure; a client gone cancels it. */
async function writeStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  // Streams (SSE) must reach the client before their first event.
  res.flushHeaders();
  const reader = body.getReader();
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

/** The handler's answer: through the core's entry when it has one, else from a web `Request`. */
function answerOf(
  handler: HttpHandler & { answer?: CoreHandler },
  req: IncomingMessage,
  res: ServerResponse,
  context: HttpRequestContext,
): Promise<Answer> {
  return handler.answer === undefined
    ? handler(toWebRequest(req, res), context)
    : handler.answer(new NodeIncoming(req, res), context);
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
    const answer = unreadable ? bodyAlreadyRead() : await answerOf(handler, req, res, context);
    await writeAnswer(answer, res);
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
