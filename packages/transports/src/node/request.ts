/**
 * `node:http` requests for the core: {@link NodeIncoming}, read directly, and `toWebRequest`
 * for handlers that only take a web `Request` (headers copied, the body streamed with
 * backpressure, an `AbortSignal` that fires when the client goes away before the response has
 * finished).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { concatBytes } from '../bytes';
import type { BodyLimits, BodyShortfall, IncomingRequest } from '../http-server/incoming';
import { unrefTimer } from '../http-server/sse-stream';

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

function mayHaveBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
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
export function toWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: { body?: boolean } = {},
): Request {
  const controller = new AbortController();
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = options.body !== false && mayHaveBody(method) && !bodyConsumed(req);
  const request = new Request(requestUrl(req), {
    method,
    headers,
    body: hasBody ? bodyStream(req, res) : null,
    signal: controller.signal,
    // Required by Node's fetch for a streamed request body.
    duplex: 'half',
  } as RequestInit);
  // Node's Request follows `signal` through a weak reference: this listener holds the Request
  // until the response closes, or a handler that kept only `request.signal` could lose the
  // disconnect's abort to garbage collection.
  res.once('close', () => {
    if (!res.writableFinished && !request.signal.aborted) controller.abort();
  });
  return request;
}

/**
 * A `node:http` request as the core reads it: headers looked up where node put them, the body
 * read from the stream itself, and a web `Request` (without the body, which is the core's) only
 * for a hook that asks.
 */
export class NodeIncoming implements IncomingRequest {
  readonly method: string;
  private used = false;
  private web: Request | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method ?? 'GET';
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  headerRecord(): Record<string, string> {
    const record: Record<string, string> = {};
    const headers = this.req.headers;
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return record;
  }

  host(): string {
    return this.req.headers.host ?? 'localhost';
  }

  readBody(limits: BodyLimits): Promise<Uint8Array | BodyShortfall> {
    this.used = true;
    const req = this.req;
    if (bodyConsumed(req)) return Promise.resolve(new Uint8Array(0));
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let total = 0;
      const finish = (result: Uint8Array | BodyShortfall) => {
        clearTimeout(timer);
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onCutOff);
        req.off('close', onClose);
        if (result === 'too-large' || result === 'too-slow') this.dropRest();
        resolve(result);
      };
      const onData = (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > limits.maxBytes) finish('too-large');
        else chunks.push(chunk);
      };
      const onEnd = () => finish(concatBytes(chunks, total));
      const onCutOff = () => finish('cut-off');
      const onClose = () => {
        if (!req.complete) finish('cut-off');
      };
      const timer =
        limits.timeoutMs > 0
          ? unrefTimer(setTimeout(() => finish('too-slow'), limits.timeoutMs))
          : undefined;
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', onCutOff);
      req.once('close', onClose);
    });
  }

  discardBody(): boolean {
    if (this.used || !mayHaveBody(this.method) || bodyConsumed(this.req)) return false;
    this.used = true;
    this.dropRest();
    return true;
  }

  onDisconnect(listener: () => void): () => void {
    const res = this.res;
    const onClose = () => {
      if (!res.writableFinished) listener();
    };
    res.once('close', onClose);
    return () => res.off('close', onClose);
  }

  toRequest(): Request {
    this.web ??= toWebRequest(this.req, this.res, { body: false });
    return this.web;
  }

  /** The rest of the body is read and dropped, and the connection not reused after it. */
  private dropRest(): void {
    this.res.shouldKeepAlive = false;
    this.req.resume();
  }
}
