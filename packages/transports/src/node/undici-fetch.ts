/**
 * The HTTP client transports' fetch on npm undici, for Node: a keep-alive pool made for one
 * transport and closed with it, or a dispatcher the caller owns (a proxy agent, tuned limits).
 */
import type { Dispatcher } from 'undici';
import type { HttpFetch } from '../http-client/options';

/** Loaded on the first request: a program that never fetches never pays for importing undici. */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => {
  undici ??= import('undici');
  return undici;
};

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
  return {
    fetch: async (url, init) => {
      const { Agent, fetch } = await loadUndici();
      if (dispatcher === undefined) owned ??= new Agent();
      return fetch(url, { ...init, dispatcher: dispatcher ?? owned });
    },
    closeFetch: async () => {
      await owned?.close();
    },
  };
}
