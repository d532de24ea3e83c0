/**
 * Connecting a command to its server: authorization (HTTP servers: ../auth), the remembered
 * era verdict (so later runs skip the probe), the result cache on disk, the wire trace, input
 * handlers (terminal, `--answers`), timeouts, and closing on Ctrl-C.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  type EraVerdict,
  type InputHandlers,
  McpClient,
  type McpClientOptions,
  restoreVerdict,
  type StoredEraVerdict,
  storeVerdict,
} from '@twofold/client/experimental';
import { withAuthorization } from '../auth/authorize';
import { answersFromFile } from '../cli/answers';
import { type CommandContext, stringOption } from '../cli/command';
import { DiskCacheStore } from '../cli/disk-cache';
import { EXIT, exitCodeFor } from '../cli/exit-codes';
import { interactiveHandlers } from '../cli/interactive';
import { cacheDir } from '../cli/paths';
import { ProgressBar } from '../cli/progress';
import { StateFile } from '../cli/state-file';
import { type ResolvedTarget, resolveTarget } from '../cli/target';
import { probeTimeoutOf, timeoutOf } from '../cli/timeout';

/** A connected command. */
export interface Connection {
  client: McpClient;
  resolved: ResolvedTarget;
  /** Progress bar on stderr (a no-op unless it is a terminal). */
  progress: ProgressBar;
  timeoutMs: number;
  /**
   * The command answers Ctrl-C itself: the client is no longer closed at the interrupt, so the
   * command can still say its last words (a task's `tasks/cancel`) before it ends and closes.
   */
  handleInterrupt(): void;
  /** Closes the client and saves what the run learned (verdict, cached results). */
  close(): Promise<void>;
}

/** Connects to the command's resolved target. */
export async function connectCommand(
  context: CommandContext,
  resolved: ResolvedTarget,
  extra: Partial<McpClientOptions> = {},
): Promise<Connection> {
  const timeoutMs = timeoutOf(context);
  const probeTimeoutMs = probeTimeoutOf(context);
  const remember = context.values['no-cache'] !== true;
  const dir = cacheDir(context.io);
  const verdicts = remember
    ? await StateFile.open<StoredEraVerdict>(join(dir, 'verdicts.json'), () => true)
    : undefined;
  const cache = remember ? await DiskCacheStore.open(join(dir, 'results.json')) : undefined;
  // The key goes into stored verdicts and cache keys: a digest, so no argument or credential of
  // the command line is written there.
  const keyed = { ...resolved.target, key: `cli:${digest(resolved.target.key)}` };
  const verdictKey = JSON.stringify([keyed.key, resolved.era, resolved.protocolVersion ?? null]);
  const progress = new ProgressBar(context.io.stderr);
  const input = await inputHandlers(context, () => progress.clear());
  const target = context.verbose
    ? (await import('../cli/trace')).tracedTarget(keyed, (line) =>
        context.note(context.paintErr.dim(line)),
      )
    : keyed;
  const options = (verdict: EraVerdict | undefined): McpClientOptions => ({
    clientInfo: { name: 'twofold-cli', version: __TWOFOLD_VERSION__ },
    era: resolved.era,
    ...(resolved.protocolVersion === undefined
      ? {}
      : { protocolVersion: resolved.protocolVersion }),
    ...(verdict === undefined ? {} : { verdict }),
    connectTimeoutMs: timeoutMs,
    requestTimeoutMs: timeoutMs,
    // The stdio probe's wait alone; over HTTP the client bounds the probe by connecting's budget.
    ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
    cache: cache ?? false,
    principal: digest(JSON.stringify([resolved.era, resolved.principal])),
    ...(input.handlers ? { handlers: input.handlers } : {}),
    onWarning: (warning) => context.note(context.paintErr.yellow(`warning: ${warning.message}`)),
    ...extra,
  });
  const stored = verdicts?.get(verdictKey);
  const known = stored === undefined ? undefined : restoreVerdict(stored, Date.now());
  let client: McpClient;
  try {
    client = await McpClient.connect(target, options(known));
  } catch (error) {
    // A remembered verdict the server now contradicts: forget it and detect again (not after a
    // timeout or an authorization failure, which detecting again would only repeat).
    const code = exitCodeFor(error);
    if (known === undefined || code === EXIT.timeout || code === EXIT.unauthorized) throw error;
    verdicts?.delete(verdictKey);
    client = await McpClient.connect(target, options(undefined));
  }
  // A verdict the client says not to keep (reached by a silent server) replaces nothing.
  const kept = storeVerdict(client.verdict, Date.now());
  if (kept === undefined) verdicts?.delete(verdictKey);
  else verdicts?.set(verdictKey, kept);
  const onInterrupt = () => void client.close();
  context.io.interrupt.addEventListener('abort', onInterrupt, { once: true });
  return {
    client,
    resolved,
    progress,
    timeoutMs,
    handleInterrupt: () => context.io.interrupt.removeEventListener('abort', onInterrupt),
    close: async () => {
      context.io.interrupt.removeEventListener('abort', onInterrupt);
      progress.clear();
      input.close();
      await client.close();
      for (const failure of await Promise.all([verdicts?.save(), cache?.save()])) {
        if (failure && context.verbose) context.note(`cache not saved: ${failure.message}`);
      }
    },
  };
}

/**
 * A digest standing for a value that is written to disk (a server key with its command line, a
 * principal made of credentials): the cache files partition by it but never hold the value.
 */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** `--answers` when given, else the terminal when there is one, else none. */
async function inputHandlers(
  context: CommandContext,
  beforePrompt: () => void,
): Promise<{ handlers?: InputHandlers; close(): void }> {
  const file = stringOption(context, 'answers');
  if (file !== undefined)
    return { handlers: await answersFromFile(file, context.io.cwd), close: () => {} };
  if (context.io.stdin.isTTY === true && context.io.stderr.isTTY === true) {
    return interactiveHandlers(context.io, context.paintErr, beforePrompt);
  }
  return { close: () => {} };
}

/**
 * Runs `body` with a connection, always closing it. When the server needs a login, the
 * connection is closed, the login runs (on a terminal), and `body` runs again on a new one.
 */
export async function withConnection<T>(
  context: CommandContext,
  body: (connection: Connection) => Promise<T>,
  extra?: Partial<McpClientOptions>,
): Promise<T> {
  const resolved = await resolveTarget(context);
  return withAuthorization(context, resolved, async (target) => {
    const connection = await connectCommand(context, { ...resolved, target }, extra);
    try {
      return await body(connection);
    } finally {
      await connection.close();
    }
  });
}
