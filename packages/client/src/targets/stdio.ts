/** The stdio target: each `open()` spawns the server afresh (era detection may need a second). */
import { StdioClientTransport, type StdioClientTransportOptions } from '@twofold/transports/node';
import type { ServerTarget } from '../types';

/**
 * How to start a stdio server: the `StdioClientTransport` options (command, args, env
 * allow-list, cwd, stderr handling, close timeouts, message size limit).
 *
 * @experimental
 */
export type StdioServerOptions = StdioClientTransportOptions;

/**
 * A server the client starts as a child process and talks to over stdin/stdout. Messages name it
 * by its command, without the arguments.
 *
 * @experimental
 */
export function stdioServer(options: StdioServerOptions): ServerTarget {
  const identity = [options.cwd ?? '', options.command, ...(options.args ?? [])];
  return {
    kind: 'stream',
    key: `stdio:${JSON.stringify(identity)}`,
    // The command without its arguments, which may hold a credential.
    name: options.command,
    open: () => new StdioClientTransport(options),
  };
}
