/**
 * From a config entry to what `McpClient` connects to: `${env:NAME}` references resolved just
 * before the start (never stored), the child's environment limited to `env` plus `envAllow`,
 * a relative `cwd` taken from the config file's directory, and a target key free of secrets.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ServerTarget } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import type { Transport } from '@twofold/protocol/experimental';
import type { HttpAuthorizer } from '@twofold/transports/experimental';
import type { StdioClientTransport } from '@twofold/transports/node';
import { resolveSecrets } from '../config/secrets';
import type { HttpServerEntry, ServerEntry, StdioServerEntry } from '../config/types';
import { managedServerKey } from './verdicts';

/**
 * What a supervisor needs to reach its server, see its process and bound an attempt.
 *
 * @experimental
 */
export interface ManagedTarget {
  target: ServerTarget;
  /** The process of the transport opened last (stdio only). */
  pid(): number | undefined;
  /** Closes the transport opened last and refuses to open more: the attempt is over. */
  abort(reason: Error): void;
}

/**
 * How targets are built: the environment references are resolved from, the directory a
 * relative `cwd` starts at, and where a child's stderr goes.
 *
 * @experimental
 */
export interface TargetContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The config file's directory: where a relative `cwd` starts. */
  baseDir: string | undefined;
  stderr: ((chunk: string) => void) | undefined;
  /** Authorization of an HTTP server's requests (e.g. an `OAuthProvider`); none for stdio. */
  auth?: HttpAuthorizer | undefined;
}

/**
 * Builds the client target of `mcp.json` server `name` (its key free of secrets; messages name
 * it `server "<name>"`). Throws
 * `McpConfigError` when a reference names an unset variable.
 *
 * @experimental
 */
export function managedTarget(
  name: string,
  entry: ServerEntry,
  context: TargetContext,
): ManagedTarget {
  const resolved = resolveSecrets(entry, context.env, name);
  const base =
    resolved.type === 'stdio' ? stdioTarget(resolved, context) : httpTarget(resolved, context.auth);
  return tracked(base, managedServerKey(name, entry), `server "${name}"`);
}

function httpTarget(entry: HttpServerEntry, auth: HttpAuthorizer | undefined): ServerTarget {
  return httpServer({
    url: entry.url,
    headers: entry.headers,
    ...(auth === undefined ? {} : { auth }),
  });
}

function stdioTarget(entry: StdioServerEntry, context: TargetContext): ServerTarget {
  const allowed: Record<string, string> = {};
  for (const variable of entry.envAllow ?? []) {
    const value = context.env[variable];
    if (value !== undefined) allowed[variable] = value;
  }
  const cwd =
    entry.cwd === undefined || isAbsolute(entry.cwd) || context.baseDir === undefined
      ? entry.cwd
      : resolve(context.baseDir, entry.cwd);
  return stdioServer({
    command: entry.command,
    args: entry.args,
    env: { ...allowed, ...entry.env },
    ...(cwd === undefined ? {} : { cwd }),
    ...(context.stderr === undefined ? {} : { stderr: context.stderr }),
  });
}

/**
 * Wraps `base` under `key` (a digest, no name for people: messages say `name`), remembering the
 * transport it opened last.
 */
function tracked(base: ServerTarget, key: string, name: string): ManagedTarget {
  let last: Transport | undefined;
  let aborted: Error | undefined;
  const remember = <T extends Transport>(transport: T): T => {
    if (aborted) throw aborted;
    last = transport;
    return transport;
  };
  const target: ServerTarget =
    base.kind === 'stream'
      ? { kind: 'stream', key, name, open: () => remember(base.open()) }
      : { kind: 'http', key, name, open: (request) => remember(base.open(request)) };
  return {
    target,
    pid: () => (last as Partial<StdioClientTransport> | undefined)?.pid,
    abort: (reason) => {
      aborted = reason;
      void last?.close().catch(() => undefined);
    },
  };
}
