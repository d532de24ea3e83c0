/**
 * The HTTP direction: a server reached by the upstream client (typically a legacy stdio
 * server) published as a dual-era Streamable HTTP endpoint on loopback, with the Host and
 * Origin checks that keep web pages elsewhere from reaching it.
 */
import { createServerHttpHandler } from '@twofold/server/http';
import type { HttpServerHandler } from '@twofold/transports/http-server';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { endOnce, openBridge } from './bridge-core';
import type { HttpBridge, HttpBridgeOptions } from './types';

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * Starts a bridge serving `options.upstream` at `http://<listen.host>:<listen.port>/` to
 * modern and legacy clients alike. Resolves once the upstream is connected and listed and the
 * endpoint listens; rejects (leaving nothing running) when either fails. The bridge ends on
 * `close()` or when the upstream connection ends.
 *
 * @experimental
 */
export async function startHttpBridge(options: HttpBridgeOptions): Promise<HttpBridge> {
  const { host, port } = options.listen;
  if (!LOOPBACK.has(host.toLowerCase()) && !/^127\.\d+\.\d+\.\d+$/.test(host)) {
    throw new TypeError(`The bridge listens on loopback only; ${JSON.stringify(host)} is not`);
  }
  const core = await openBridge(options);
  let endpoint: ServedEndpoint;
  try {
    // Built once the URL is known: with port 0, the resource a downstream token is for
    // includes the port the system picked.
    let handler: HttpServerHandler | undefined;
    const late = Object.assign(
      async (request: Request) =>
        handler ? handler(request) : new Response('starting', { status: 503 }),
      { close: async () => handler?.close() },
    );
    endpoint = await serve(late, { host: host === '[::1]' ? '::1' : host, port });
    const auth = typeof options.auth === 'function' ? options.auth(endpoint.url) : options.auth;
    try {
      handler = createServerHttpHandler(core.served, {
        ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
        ...(auth === undefined ? {} : { auth }),
        onerror: (error) =>
          core.report({ source: 'bridge', level: 'warning', message: error.message, data: error }),
      });
    } catch (error) {
      await endpoint.close();
      throw error;
    }
  } catch (error) {
    await core.close();
    throw error;
  }
  // Downstream first: open listens end with their final result while the upstream is there.
  const lifecycle = endOnce(async () => {
    try {
      await endpoint.close();
    } finally {
      await core.close();
    }
  }, core.report);
  void core.upstreamEnded.then((error) =>
    lifecycle.endQuietly({ reason: 'upstream-ended', ...(error === undefined ? {} : { error }) }),
  );
  return {
    url: endpoint.url,
    upstreamVerdict: core.client.verdict,
    closed: lifecycle.closed,
    close: () => lifecycle.end({ reason: 'closed' }),
  };
}
