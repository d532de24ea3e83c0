/**
 * The authorization options of a command (`--client-id`, `--client-secret`, `--scope`,
 * `--grant`, `--login-timeout`, and their environment variables), and the `twofold login`
 * command line that fits a target, for hints.
 */

import { type CommandContext, stringOption } from '../cli/command';
import { usageError } from '../cli/exit-codes';
import { redactUrl } from '../cli/redact';
import type { ResolvedTarget } from '../cli/target';
import { millisecondsOption, timeoutOf } from '../cli/timeout';

/** How tokens are got. */
export interface AuthSettings {
  /** `authorization-code`: a person logs in through a browser; `client-credentials`: a program. */
  grant: 'authorization-code' | 'client-credentials';
  /** A pre-registered client (otherwise the client registers itself where it can). */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Space-separated scopes to ask for instead of what the server suggests. */
  scope: string | undefined;
  /** How long a browser login may take. */
  loginTimeoutMs: number;
  /** Each metadata, registration and token request (`--timeout`). */
  requestTimeoutMs: number;
}

/** The default bound of a browser login: five minutes. */
const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

/** Reads the settings; a usage error (exit 64) for inconsistent ones. */
export function authSettings(context: CommandContext): AuthSettings {
  const { env } = context.io;
  const grant = stringOption(context, 'grant') ?? 'authorization-code';
  if (grant !== 'authorization-code' && grant !== 'client-credentials') {
    throw usageError(`--grant must be authorization-code or client-credentials, not "${grant}"`);
  }
  const clientId = stringOption(context, 'client-id') ?? (env.TWOFOLD_CLIENT_ID || undefined);
  const givenSecret = stringOption(context, 'client-secret');
  if (givenSecret !== undefined && clientId === undefined) {
    throw usageError('--client-secret needs --client-id (or TWOFOLD_CLIENT_ID)');
  }
  // The variable applies only with a client id: it may be meant for another server's client.
  const clientSecret =
    clientId === undefined ? undefined : (givenSecret ?? (env.TWOFOLD_CLIENT_SECRET || undefined));
  if (grant === 'client-credentials' && (clientId === undefined || clientSecret === undefined)) {
    throw usageError(
      '--grant client-credentials needs --client-id and a secret (TWOFOLD_CLIENT_SECRET, or --client-secret)',
    );
  }
  const scope = stringOption(context, 'scope')?.trim() || undefined;
  return {
    grant,
    clientId,
    clientSecret,
    scope,
    loginTimeoutMs: millisecondsOption(context, 'login-timeout', DEFAULT_LOGIN_TIMEOUT_MS),
    requestTimeoutMs: timeoutOf(context),
  };
}

/** `twofold login` for this command's target, with the options that shape the login. */
export function loginCommand(context: CommandContext): string {
  const words = ['twofold', 'login'];
  const server = stringOption(context, 'server');
  if (server !== undefined) {
    words.push('--server', quoted(server));
    const config = stringOption(context, 'config');
    if (config !== undefined) words.push('--config', quoted(config));
  } else {
    words.push('--url', quoted(redactUrl(stringOption(context, 'url') ?? '')));
  }
  const clientId = stringOption(context, 'client-id');
  if (clientId !== undefined) words.push('--client-id', quoted(clientId));
  const scope = stringOption(context, 'scope');
  if (scope !== undefined) words.push('--scope', quoted(scope));
  return words.join(' ');
}

/** The server as messages name it: its URL, or its mcp.json name with its URL. */
export function serverName(context: CommandContext, resolved: ResolvedTarget): string {
  const url = redactUrl(resolved.http?.url ?? stringOption(context, 'url') ?? '');
  const server = stringOption(context, 'server');
  return server === undefined ? url : `"${server}" (${url})`;
}

function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
