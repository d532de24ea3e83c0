/**
 * `twofold bridge`: with `--listen host:port`, the target (a stdio server, either era) is
 * published as a dual-era Streamable HTTP endpoint on loopback (with `--auth-issuer`, for
 * clients with a bearer token only); without it, the target (an HTTP server, either era) is
 * served on this process's stdin/stdout for hosts that only spawn processes. An HTTP upstream
 * that asks for OAuth is authorized with the bridge's own token, as any command's. Runs until interrupted (exit 130), until the downstream host closes stdin
 * (stdio; exit 0), or until the upstream ends (exit 69). Notes go to stderr: in the stdio
 * direction stdout carries the protocol.
 */

import type { ServerTarget } from '@twofold/client/experimental';
import { isTerminal, withAuthorization } from '../auth/authorize';
import { downstreamAuth } from '../auth/downstream';
import {
  type BridgeEnd,
  type RunningBridge,
  startHttpBridge,
  startStdioBridge,
} from '../bridge/index';
import { type CommandContext, listOption, stringOption } from '../cli/command';
import { CliError, EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { resolveTarget } from '../cli/target';
import { probeTimeoutOf, timeoutOf } from '../cli/timeout';

export async function run(context: CommandContext): Promise<ExitCode> {
  const resolved = await resolveTarget(context);
  const listen = stringOption(context, 'listen');
  const { dim, yellow } = context.paintErr;
  const connectTimeoutMs = timeoutOf(context);
  const probeTimeoutMs = probeTimeoutOf(context);
  const auth = await downstreamAuth(context, listen !== undefined, connectTimeoutMs);
  const upstream = (target: ServerTarget) => ({
    upstream: target,
    era: resolved.era,
    ...(resolved.protocolVersion === undefined
      ? {}
      : { protocolVersion: resolved.protocolVersion }),
    connectTimeoutMs,
    ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
    clientInfo: { name: 'twofold-bridge', version: __TWOFOLD_VERSION__ },
    onLog: (entry: { source: string; level: string; message: string }) => {
      if (context.verbose || entry.source === 'bridge')
        context.note(dim(`${entry.source} ${entry.level}: ${entry.message}`));
    },
  });
  let started = false;
  let told = false;
  // The bridge authorizes upstream as itself (a login here only on a terminal, and never in the
  // stdio direction, where stdin and stdout are the host's). Downstream tokens stay here.
  const bridge = await withAuthorization(
    context,
    resolved,
    async (target): Promise<RunningBridge & { url?: URL }> => {
      if (listen === undefined) {
        const { stdin: input, stdout: output } = context.io;
        return startStdioBridge({ ...upstream(target), input, output });
      }
      return startHttpBridge({
        ...upstream(target),
        listen: hostAndPort(listen),
        allowedOrigins: listOption(context, 'allow-origin'),
        ...(auth === undefined ? {} : { auth }),
      });
    },
    {
      interactive: listen !== undefined && isTerminal(context),
      onLoginNeeded: (command) => {
        if (!started || told) return;
        told = true;
        context.note(
          yellow(
            `twofold bridge: the upstream needs a new login; until then its requests fail. Run \`${command}\` in a terminal: the bridge uses the new token at once`,
          ),
        );
      },
    },
  );
  started = true;
  const where = bridge.url === undefined ? 'on stdio' : `on ${bridge.url.href}`;
  const { era, protocolVersion } = bridge.upstreamVerdict;
  const guarded = auth === undefined ? '' : ', bearer tokens required';
  context.note(
    `twofold bridge: ${resolved.label} (${era} ${protocolVersion}) published ${where}, for both eras${guarded}`,
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
