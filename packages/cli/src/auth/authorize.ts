/**
 * Authorization for every command that talks to an HTTP server. Each attempt runs with an
 * `OAuthProvider` that has no way to ask a person: it reuses a stored token, refreshes it
 * (under the store's lock), or gets one with client credentials. When a person is needed, the
 * attempt fails with `interaction-required`; on a terminal the login then runs on its own,
 * outside any MCP request (whose timeouts would otherwise run while someone types a password),
 * and the attempt is made again. Without a terminal the command ends with exit 77 and the
 * `twofold login` command to run.
 */
import {
  type AuthorizationHandler,
  OAuthProvider,
  type OAuthProviderOptions,
  type ServerTarget,
  type TokenKey,
} from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import type { HttpAuthorizer } from '@twofold/transports/experimental';
import type { CommandContext } from '../cli/command';
import { CliError, EXIT } from '../cli/exit-codes';
import { authDir } from '../cli/paths';
import type { ResolvedTarget } from '../cli/target';
import { ChallengeRecorder, type LastChallenge, splitScopes } from './challenge-recorder';
import { FileTokenStore } from './file-store';
import { type AuthSettings, authSettings, loginCommand, serverName } from './settings';

/** Logins in a row for one command before it gives up (the second covers a step-up). */
const MAX_LOGINS = 2;

/** How one command authorizes to its HTTP server. */
export interface Authorization {
  readonly endpoint: URL;
  readonly store: FileTokenStore;
  readonly settings: AuthSettings;
  /** A provider with the command's settings; with `handler`, one that can log a person in. */
  provider(options?: { handler?: AuthorizationHandler; scope?: string }): OAuthProvider;
  /** The command's target, authorized by `authorizer`. */
  target(authorizer: HttpAuthorizer): ServerTarget;
  /**
   * Whether the server is expected to ask for a token: a token file covers the endpoint, or
   * the grant is client credentials. Then the token is got before the first MCP request.
   */
  expected(): Promise<boolean>;
}

/**
 * The authorization of `resolved`, or `undefined` when there is none to do: a stdio server, or
 * an `Authorization` header given with `--header` (or in the mcp.json), which is used as is.
 */
export async function authorizationFor(
  context: CommandContext,
  resolved: ResolvedTarget,
  overrides: { requestTimeoutMs?: number } = {},
): Promise<Authorization | undefined> {
  const http = resolved.http;
  if (http === undefined) return undefined;
  if (Object.keys(http.headers).some((name) => name.toLowerCase() === 'authorization'))
    return undefined;
  const settings = { ...authSettings(context), ...overrides };
  const trace = tracer(context);
  const store = new FileTokenStore(authDir(context.io), {
    warn: (message) => context.note(context.paintErr.yellow(`warning: ${message}`)),
    lock: trace
      ? {
          onWait: (holder) =>
            trace(
              `# oauth: waiting for the token lock${holder ? ` (held by pid ${holder.pid})` : ''}`,
            ),
        }
      : {},
  });
  const fetch = trace
    ? (await import('./oauth-trace')).tracedFetch(globalThis.fetch.bind(globalThis), trace)
    : undefined;
  const endpoint = new URL(http.url);
  return {
    endpoint,
    store,
    settings,
    provider: (options = {}) => new OAuthProvider(providerOptions(settings, store, options, fetch)),
    target: (authorizer) => ({
      ...httpServer({ ...http, auth: authorizer }),
      key: resolved.target.key,
      name: resolved.target.name,
    }),
    expected: async () =>
      settings.grant === 'client-credentials' ||
      (await store.list()).some((file) => covers(file.resource, endpoint)),
  };
}

function providerOptions(
  settings: AuthSettings,
  store: FileTokenStore,
  options: { handler?: AuthorizationHandler; scope?: string },
  fetch: typeof globalThis.fetch | undefined,
): OAuthProviderOptions {
  const scope = options.scope ?? settings.scope;
  return {
    grant: {
      type: settings.grant === 'client-credentials' ? 'client_credentials' : 'authorization_code',
    },
    store,
    ...(options.handler === undefined ? {} : { handler: options.handler }),
    ...(settings.clientId === undefined
      ? {}
      : {
          client: {
            clientId: settings.clientId,
            ...(settings.clientSecret === undefined ? {} : { clientSecret: settings.clientSecret }),
          },
        }),
    clientMetadata: { client_name: 'twofold CLI' },
    ...(scope === undefined ? {} : { scope }),
    requestTimeoutMs: settings.requestTimeoutMs,
    authorizationTimeoutMs: settings.loginTimeoutMs,
    ...(fetch === undefined ? {} : { fetch }),
  };
}

/** Options of {@link withAuthorization}. */
export interface WithAuthorizationOptions {
  /** Whether a login may run here. Default: stdin and stdout are a terminal. */
  interactive?: boolean;
  /** Told, with the `twofold login` to run, when a later request needs a login (a bridge). */
  onLoginNeeded?: (command: string) => void;
}

/**
 * Runs `attempt` against the command's target, authorized; logs in (on a terminal) and tries
 * again when a person is needed. `attempt` must be safe to repeat: what failed for want of
 * authorization never reached the server.
 */
export async function withAuthorization<T>(
  context: CommandContext,
  resolved: ResolvedTarget,
  attempt: (target: ServerTarget) => Promise<T>,
  options: WithAuthorizationOptions = {},
): Promise<T> {
  const auth = await authorizationFor(context, resolved);
  if (auth === undefined) return attempt(resolved.target);
  const interactive = options.interactive ?? isTerminal(context);
  const trace = tracer(context);
  for (let logins = 0; ; logins++) {
    const provider = auth.provider();
    const recorder = new ChallengeRecorder(provider, {
      ...(trace ? { trace } : {}),
      ...(options.onLoginNeeded
        ? {
            onInteractionRequired: () => options.onLoginNeeded?.(loginCommand(context)),
          }
        : {}),
    });
    try {
      // Reusing, refreshing (perhaps waiting for another process's refresh) or getting a token
      // happens here, not inside the first MCP request, whose own timeout (an era probe's is a
      // few seconds) would run meanwhile. Without a stored token, the first request's 401 says
      // whether one is needed.
      if (await auth.expected()) await provider.login(auth.endpoint);
      return await attempt(auth.target(recorder));
    } catch (error) {
      const own = cliErrorIn(error);
      if (own) throw own;
      const needed = interactionRequired(error);
      if (needed === undefined) throw error;
      if (!interactive) throw loginHint(context, resolved, needed, recorder.last?.status);
      if (logins >= MAX_LOGINS) {
        throw new CliError(EXIT.unauthorized, `still not authorized after ${logins} logins`);
      }
      context.note(context.paintErr.dim(`twofold: ${serverName(context, resolved)} needs a login`));
      await login(context, auth, await loginScope(auth, needed, recorder.last));
    }
  }
}

/**
 * A bearer header for a command that checks a server with requests of its own (`doctor`): the
 * stored token, refreshed or got as a command would (logging in on a terminal), or no header
 * when the server does not ask for one. Failures other than a needed login are left to the
 * command to meet (and report) on its own requests.
 */
export async function bearerHeader(
  context: CommandContext,
  resolved: ResolvedTarget,
  requestTimeoutMs?: number,
): Promise<Record<string, string>> {
  const auth = await authorizationFor(
    context,
    resolved,
    requestTimeoutMs === undefined ? {} : { requestTimeoutMs },
  );
  if (auth === undefined) return {};
  let key: TokenKey | undefined;
  try {
    key = await auth.provider().login(auth.endpoint);
  } catch (error) {
    const own = cliErrorIn(error);
    if (own) throw own;
    const needed = interactionRequired(error);
    if (needed === undefined) {
      if (error instanceof LocalError && error.code === LocalErrorCode.AuthorizationFailed)
        context.note(context.paintErr.yellow(`warning: not authorized: ${error.message}`));
      return {};
    }
    if (!isTerminal(context)) throw loginHint(context, resolved, needed);
    key = await login(
      context,
      auth,
      auth.settings.scope === undefined ? {} : { scope: auth.settings.scope },
    );
  }
  const tokens = key === undefined ? undefined : (await auth.store.get(key))?.tokens;
  return tokens === undefined ? {} : { authorization: `Bearer ${tokens.accessToken}` };
}

/** Runs the browser login for `auth` (the `login` command, or a command's own). */
export async function login(
  context: CommandContext,
  auth: Authorization,
  options: { force?: boolean; scope?: string } = {},
): Promise<TokenKey | undefined> {
  const { BrowserAuthorization } = await import('./browser-handler');
  const trace = tracer(context);
  const handler = new BrowserAuthorization({
    io: context.io,
    paintErr: context.paintErr,
    note: context.note,
    ...(trace ? { trace } : {}),
  });
  try {
    const provider = auth.provider({
      handler,
      ...(options.scope === undefined ? {} : { scope: options.scope }),
    });
    return await provider.login(auth.endpoint, { force: options.force === true });
  } finally {
    await handler.close();
  }
}

/**
 * What to ask for when logging in again: after a 403 `insufficient_scope`, the scopes held so
 * far with those the challenge names (a fresh login, since the stored token lacks them).
 */
async function loginScope(
  auth: Authorization,
  needed: TokenKey | undefined,
  last: LastChallenge | undefined,
): Promise<{ force?: boolean; scope?: string }> {
  const base = auth.settings.scope === undefined ? {} : { scope: auth.settings.scope };
  if (last?.status !== 403 || needed === undefined) return base;
  const held = (await auth.store.get(needed).catch(() => undefined))?.tokens?.scope;
  const wanted = new Set([
    ...splitScopes(auth.settings.scope),
    ...splitScopes(held),
    ...splitScopes(last.scope),
  ]);
  return { force: true, scope: [...wanted].join(' ') };
}

/** Whether a person can be asked here: stdin and stdout are a terminal. */
export function isTerminal(context: CommandContext): boolean {
  return context.io.stdin.isTTY === true && context.io.stdout.isTTY === true;
}

/** The exit-77 error saying which `twofold login` to run. */
function loginHint(
  context: CommandContext,
  resolved: ResolvedTarget,
  needed: TokenKey | undefined,
  status = 401,
): CliError {
  const at = needed?.issuer ? ` at ${needed.issuer}` : '';
  return new CliError(
    EXIT.unauthorized,
    `${serverName(context, resolved)} answered HTTP ${status}: it needs a login${at}, and there is no terminal to log in here: run \`${loginCommand(context)}\``,
  );
}

/** The issuer and resource of an `interaction-required` failure along `error`'s causes. */
function interactionRequired(error: unknown): TokenKey | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++, e = e.cause) {
    if (
      e instanceof LocalError &&
      e.code === LocalErrorCode.AuthorizationFailed &&
      e.details?.step === 'interaction-required'
    ) {
      return detailsOf(e) ?? { issuer: '', resource: '' };
    }
  }
  return undefined;
}

function detailsOf(error: Error): TokenKey | undefined {
  const details = (error as LocalError).details;
  return typeof details?.issuer === 'string' && typeof details.resource === 'string'
    ? { issuer: details.issuer, resource: details.resource }
    : undefined;
}

/** A `CliError` of ours (a refused token file) carried out through the transport's wrapping. */
function cliErrorIn(error: unknown): CliError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++, e = e.cause) {
    if (e instanceof CliError) return e;
  }
  return undefined;
}

/** Whether a resource (a token's audience) covers the endpoint: same origin, a path prefix. */
function covers(resource: string, endpoint: URL): boolean {
  if (!URL.canParse(resource)) return false;
  const url = new URL(resource);
  const prefix = url.pathname.replace(/\/$/, '');
  return (
    url.origin === endpoint.origin &&
    (prefix === '' || endpoint.pathname === prefix || endpoint.pathname.startsWith(`${prefix}/`))
  );
}

/** `--verbose` lines on stderr, dimmed. */
function tracer(context: CommandContext): ((line: string) => void) | undefined {
  return context.verbose ? (line) => context.note(context.paintErr.dim(line)) : undefined;
}
