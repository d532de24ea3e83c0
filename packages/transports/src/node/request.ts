/**
 * `node:http` request → web `Request`: headers copied, the body streamed with backpressure, and
 * an `AbortSignal` that fires when the client goes away before the response has finished.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bytes of request body buffered before the socket is paused. */
const BODY_HIGH_WATER_MARK = 64 * 1024;

function requestUrl(req: IncomingMessage): URL {
  const path = req.url ?? '/';
  try {
    return new URL(path, `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    // A Host header that is not a valid authority: the handler's Host check still sees it.
    return new URL(path, 'http://localhost');
  }
}

/**
 * The body as a web stream. Cancelling it (the handler refused the body, e.g. as too large)
 * stops buffering, and the connection is not reused, so the rest of the upload is not read
 * into memory or mistaken for a next request.
 */
function bodyStream(req: IncomingMessage, res: ServerResponse): ReadableStream<Uint8Array> {
  let onData: ((chunk: Buffer) => void) | undefined;
  let settled = false;
  // Stops listening once the stream is done, whichever way it ends.
  const settle = (finish?: () => void) => {
    if (settled) return;
    settled = true;
    if (onData !== undefined) req.off('data', onData);
    finish?.();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.on('data', onData);
        req.once('end', () => settle(() => controller.close()));
        req.once('error', (error) => settle(() => controller.error(error)));
        req.once('close', () => {
          if (!req.complete) {
            settle(() => controller.error(new Error('The request body was cut off')));
          }
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        settle();
        res.shouldKeepAlive = false;
        // Drain (and discard) what the client is still sending, so it can read our answer.
        req.resume();
      },
    },
    { highWaterMark: BODY_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
  );
}

/** Whether a body parser has already read the request's stream to its end. */
export function bodyConsumed(req: IncomingMessage): boolean {
  return req.readableEnded;
}

/**
 * Converts a `node:http` request; the signal aborts when `res` closes before finishing. A
 * stream already read (a body parser ran first) becomes an empty body: the caller passes what
 * the parser made of it.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && !bodyConsumed(req);
  return new Request(requestUrl(req), {
    method,
    headers,
    body: hasBody ? bodyStream(req, res) : null,
    signal: controller.signal,
    // Required by Node's fetch for a streamed request body.
    duplex: 'half',
  } as RequestInit);
}
