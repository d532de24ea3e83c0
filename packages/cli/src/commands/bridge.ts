/**
 * `twofold bridge`: with `--listen host:port`, the target (a stdio server, either era) is
 * published as a dual-era Streamable HTTP endpoint on loopback; without it, the target (an
 * HTTP server, either era) is served on this process's stdin/stdout for hosts that only spawn
 * processes. Runs until interrupted (exit 130), until the downstream host closes stdin
 * (stdio; exit 0), or until the upstream ends (exit 69). Notes go to stderr: in the stdio
 * direction stdout carries the protocol.
 */

import {
  type BridgeEnd,
  type RunningBridge,
  startHttpBridge,
  startStdioBridge,
} from '../bridge/index';
import { timeoutOf } from '../cli/timeout';
import { CliError, EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { resolveTarget } from '../cli/target';
import { type CommandContext, listOption, stringOption } from './context';

export async function run(context: CommandContext): Promise<ExitCode> {
  const resolved = await resolveTarget(context);
  const listen = stringOption(context, 'listen');
  const { dim } = context.paintErr;
  const upstream = {
    upstream: resolved.target,
    era: resolved.era,
    ...(resolved.protocolVersion === undefined
      ? {}
      : { protocolVersion: resolved.protocolVersion }),
    connectTimeoutMs: timeoutOf(context),
    clientInfo: { name: 'twofold-bridge', version: __TWOFOLD_VERSION__ },
    onLog: (entry: { source: string; level: string; message: string }) => {
      if (context.verbose || entry.source === 'bridge')
        context.note(dim(`${entry.source} ${entry.level}: ${entry.message}`));
    },
  };
  let bridge: RunningBridge;
  let where: string;
  if (listen === undefined) {
    const { stdin: input, stdout: output } = context.io;
    bridge = await startStdioBridge({ ...upstream, input, output });
    where = 'on stdio';
  } else {
    const allowedOrigins = listOption(context, 'allow-origin');
    const http = await startHttpBridge({
      ...upstream,
      listen: hostAndPort(listen),
      allowedOrigins,
    });
    bridge = http;
    where = `on ${http.url.href}`;
  }
  const { era, protocolVersion } = bridge.upstreamVerdict;
  context.note(
    `twofold bridge: ${resolved.label} (${era} ${protocolVersion}) published ${where}, for both eras`,
  );
  const interrupted = new Promise<'interrupted'>((resolve) => {
    if (context.io.interrupt.aborted) resolve('interrupted');
    context.io.interrupt.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  const ended = await Promise.race([bridge.closed, interrupted]);
  if (ended === 'interrupted') {
    await bridge.close();
    return EXIT.interrupted;
  }
  return exitFor(ended);
}

function exitFor(end: BridgeEnd): ExitCode {
  if (end.reason !== 'upstream-ended') return EXIT.ok;
  const why = end.error ? `: ${end.error.message}` : '';
  throw new CliError(EXIT.unavailable, `the upstream server ended${why}`);
}

/** `127.0.0.1:8080`, `[::1]:8080`, `localhost:0`. */
function hostAndPort(value: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw usageError(`--listen must be host:port (for example 127.0.0.1:8080), not "${value}"`);
  }
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}
