/**
 * `serve`: a web-standard handler on a `node:http` server, loopback by default, with the Host
 * check that protects loopback servers from DNS rebinding, and a `close()` that leaves no
 * socket behind.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkHost } from '../http-server/guards';
import type { HttpHandler } from '../http-server/types';
import { type NodeListenerOptions, toNodeListener } from './listener';

/**
 * Options of {@link serve}.
 *
 * @experimental
 */
export interface ServeOptions extends NodeListenerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * `Host` header values accepted (403 otherwise). Default: for a loopback `host`, the
   * loopback names with the bound port (`127.0.0.1:<port>`, `localhost:<port>`,
   * `[::1]:<port>`); otherwise no check. `false` turns the check off.
   */
  allowedHosts?: readonly string[] | false;
}

/**
 * A running server started by {@link serve}.
 *
 * @experimental
 */
export interface ServedEndpoint {
  /** The endpoint's URL, e.g. `http://127.0.0.1:53211/`. */
  readonly url: URL;
  readonly server: Server;
  /**
   * Closes the handler (when it has `close()`, as `createHttpHandler`'s does), then the server
   * and every open connection, streams included. Resolves when all are closed.
   */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function authority(host: string, port: number): string {
  const name = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${name}:${port}`;
}

function defaultAllowedHosts(host: string, port: number): readonly string[] | undefined {
  if (!isLoopback(host)) return undefined;
  const names = ['127.0.0.1', 'localhost', '[::1]', host];
  return [...new Set(names.map((name) => authority(name, port)))];
}

/**
 * Serves `handler` over HTTP on `host:port` (default `127.0.0.1`, a free port).
 *
 * @experimental
 */
export async function serve(
  handler: HttpHandler & { close?: () => Promise<void> },
  options: ServeOptions = {},
): Promise<ServedEndpoint> {
  const host = options.host ?? '127.0.0.1';
  let allowedHosts: readonly string[] | undefined;
  const guarded: HttpHandler = async (request) =>
    checkHost(request, allowedHosts) ?? handler(request);
  const server = createServer(toNodeListener(guarded, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts =
    options.allowedHosts === false
      ? undefined
      : (options.allowedHosts ?? defaultAllowedHosts(host, port));

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await handler.close?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closing;
  };
  return { url: new URL(`http://${authority(host, port)}/`), server, close };
}
