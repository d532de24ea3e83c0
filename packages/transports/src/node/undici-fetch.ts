/**
 * The HTTP client transports' fetch on npm undici, for Node: a keep-alive pool made for one
 * transport and closed with it, or a dispatcher the caller owns (a proxy agent, tuned limits).
 *
 * It sends through undici's `request` API, not its `fetch`: the transports read only a status,
 * headers and a body stream (`HttpFetchResponse`), and `fetch` spends about 270 µs per call on
 * the web `Request`/`Response` machinery around the same request (measured on loopback: 3,400
 * against 10,200 calls per second). What `fetch` does that the transports count on is kept:
 * redirects are followed, a failure rejects with a `TypeError('fetch failed')` whose `cause` is
 * the network error, and a URL with credentials is refused.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { HttpFetch, HttpFetchResponse } from '../http-client/options';

/** Loaded on the first request: a program that never fetches never pays for importing undici. */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => {
  undici ??= import('undici');
  return undici;
};

/** As many redirects as `fetch` follows. */
const MAX_REDIRECTIONS = 20;

/**
 * The `fetch` and `closeFetch` options of one HTTP client transport.
 *
 * @experimental
 */
export interface UndiciFetch {
  fetch: HttpFetch;
  closeFetch: () => Promise<void>;
}

/**
 * A fetch on npm undici for one transport. Without `dispatcher` it makes its own keep-alive
 * `Agent` on the first request and `closeFetch` closes it; a `dispatcher` passed in is left open.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport({
 *   url: 'http://127.0.0.1:3000/mcp',
 *   era: 'modern',
 *   ...undiciFetch(),
 * });
 * ```
 * @experimental
 */
export function undiciFetch(dispatcher?: Dispatcher): UndiciFetch {
  let owned: Dispatcher | undefined;
  let sender: Dispatcher | undefined;
  return {
    fetch: async (url, init) => {
      if (url.username !== '' || url.password !== '') {
        throw new TypeError('Request cannot be constructed from a URL that includes credentials');
      }
      const { Agent, interceptors } = await loadUndici();
      if (sender === undefined) {
        if (dispatcher === undefined) owned = new Agent();
        sender = (dispatcher ?? (owned as Dispatcher)).compose(
          interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }),
        );
      }
      let answer: Dispatcher.ResponseData;
      try {
        answer = await sender.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: init.method,
          headers: init.headers,
          body: init.body,
          signal: init.signal,
        });
      } catch (cause) {
        if (init.signal.aborted) throw init.signal.reason;
        throw new TypeError('fetch failed', { cause });
      }
      return responseOf(answer);
    },
    closeFetch: async () => {
      await owned?.close();
    },
  };
}

/** The parts of a fetch `Response` the transports read, over undici's answer. */
function responseOf(answer: Dispatcher.ResponseData): HttpFetchResponse {
  const { statusCode, headers } = answer;
  return {
    status: statusCode,
    ok: statusCode >= 200 && statusCode < 300,
    headers: {
      get(name) {
        const value = headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: webStreamOf(answer.body),
  };
}

/**
 * The body as a web stream that reads only as fast as it is read (a slow reader pauses the
 * socket), and releases the socket when cancelled.
 */
function webStreamOf(body: Readable): ReadableStream<Uint8Array> {
  // A stream closed, errored or cancelled takes nothing more (its controller would throw).
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      body.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) body.pause();
      });
      body.once('end', () => {
        if (open) controller.close();
        open = false;
      });
      body.on('error', (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    pull() {
      body.resume();
    },
    cancel() {
      open = false;
      body.destroy();
    },
  });
}
