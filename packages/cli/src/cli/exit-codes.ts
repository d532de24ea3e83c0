/**
 * Exit codes in the sysexits convention, and which failure gets which. The table is part of the
 * CLI's contract (docs/cli.md): scripts branch on it.
 */
import { LocalError, LocalErrorCode, ProtocolError } from '@twofold/protocol/experimental';

/**
 * The exit codes of `twofold`.
 *
 * @experimental
 */
export const EXIT = {
  ok: 0,
  /** The tool ran and returned an error result (`isError`), or doctor found a failure. */
  toolError: 1,
  /** Bad flags, a missing argument, an unknown command. */
  usage: 64,
  /** Bad input data: arguments that are not valid JSON, a value the schema refuses. */
  dataError: 65,
  /**
   * The server could not be reached, failed to start, refused the request (an HTTP 403 that is
   * not about authorization), or does not offer what was asked (no resources, prompts, …).
   */
  unavailable: 69,
  /** A bug in twofold. */
  internal: 70,
  /** A file twofold writes (the `mcp.json`) could not be written: permissions, a full disk. */
  cannotWrite: 73,
  /** A timeout. */
  timeout: 75,
  /** The server broke the protocol or answered with a protocol error. */
  protocol: 76,
  /** The server wants authorization: HTTP 401, or 403 with an `insufficient_scope` challenge. */
  unauthorized: 77,
  /** The `mcp.json` is invalid or names no such server. */
  config: 78,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

/**
 * An exit code.
 *
 * @experimental
 */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * A failure the CLI reports as one line with a chosen exit code.
 *
 * @experimental
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A usage mistake: exit 64, with the command's help pointed at. */
export function usageError(message: string): CliError {
  return new CliError(EXIT.usage, message);
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT',
  'EACCES',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** The system error codes along an error's cause chain. */
function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    e = e.cause;
  }
  return codes;
}

/** Invalid params: the arguments or the name given were refused. */
const INVALID_PARAMS = -32602;

/**
 * The exit code for a failure. `McpConfigError` is recognised by name, so this module does not
 * load the registry adapter.
 *
 * @experimental
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  const denied = authorizationFailure(error);
  if (denied !== undefined) return authorizationExitCode(denied);
  if (error instanceof Error && error.name === 'McpConfigError') return EXIT.config;
  if (error instanceof ProtocolError) {
    return error.code === INVALID_PARAMS ? EXIT.dataError : EXIT.protocol;
  }
  if (error instanceof LocalError) return localExitCode(error);
  if (causeCodes(error).some((code) => UNREACHABLE.has(code))) return EXIT.unavailable;
  return EXIT.internal;
}

/** An OAuth failure (`AUTHORIZATION_FAILED`) along the cause chain: a transport wraps them. */
function authorizationFailure(error: unknown): LocalError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof LocalError && e.code === LocalErrorCode.AuthorizationFailed) return e;
    e = e.cause;
  }
  return undefined;
}

/** 77, unless the authorization server could not be reached (69) or a login timed out (75). */
function authorizationExitCode(error: LocalError): ExitCode {
  const reason = error.details?.reason;
  if (typeof reason === 'string' && UNREACHABLE.has(reason)) return EXIT.unavailable;
  // A fetch failure's system code is only in the message ("fetch failed (connect ECONNREFUSED …)").
  if ([...UNREACHABLE].some((code) => error.message.includes(code))) return EXIT.unavailable;
  if (error.details?.timeoutMs !== undefined) return EXIT.timeout;
  return EXIT.unauthorized;
}

function localExitCode(error: LocalError): ExitCode {
  switch (error.code) {
    case LocalErrorCode.RequestTimeout:
      return EXIT.timeout;
    case LocalErrorCode.Unauthorized:
      return serverRefusal(error) === undefined ? EXIT.unauthorized : EXIT.unavailable;
    case LocalErrorCode.RequestAborted:
      return EXIT.interrupted;
    case LocalErrorCode.ProcessExited:
    case LocalErrorCode.ConnectionClosed:
    case LocalErrorCode.NotConnected:
      return EXIT.unavailable;
    case LocalErrorCode.HttpError: {
      const status = Number(error.details?.status);
      if (status === 403 && !asksForScope(error)) return EXIT.unavailable;
      if (status === 401 || status === 403) return EXIT.unauthorized;
      return status >= 500 || Number.isNaN(status) ? EXIT.unavailable : EXIT.protocol;
    }
    default:
      return causeCodes(error).some((code) => UNREACHABLE.has(code))
        ? EXIT.unavailable
        : EXIT.protocol;
  }
}

/** How much of a refusal's body a message quotes. */
const EXCERPT_CHARS = 200;

/**
 * A 403 that is not about authorization (a Host or Origin check, a firewall): the server's
 * refusal, with the start of what it said (control characters removed: it is printed on a
 * terminal). Only a 401, or a 403 whose Bearer challenge says `insufficient_scope`, is about
 * authorization.
 *
 * @experimental
 */
export function serverRefusal(error: unknown): { status: 403; excerpt: string } | undefined {
  if (!(error instanceof LocalError)) return undefined;
  if (error.code !== LocalErrorCode.Unauthorized && error.code !== LocalErrorCode.HttpError) {
    return undefined;
  }
  if (error.details?.status !== 403 || asksForScope(error)) return undefined;
  const body = error.details?.bodySnippet;
  const text = typeof body === 'string' ? body.replace(/[\p{Cc}\s]+/gu, ' ').trim() : '';
  const excerpt = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  return { status: 403, excerpt };
}

/** Whether a 403 carries a Bearer challenge asking for more scope (RFC 6750 §3.1). */
function asksForScope(error: LocalError): boolean {
  const challenge = error.details?.wwwAuthenticate;
  return (
    typeof challenge === 'string' &&
    /\bbearer\b.*error\s*=\s*"?insufficient_scope/is.test(challenge)
  );
}
