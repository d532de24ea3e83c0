/**
 * `twofold login` and `twofold logout`: getting and forgetting the OAuth tokens of an HTTP
 * server ahead of the commands that use them. A stdio server has nothing to log in to (it takes
 * credentials from its environment).
 */
import type { TokenKey } from '@twofold/client/experimental';
import { type Authorization, authorizationFor, login } from '../auth/authorize';
import type { TokenFile } from '../auth/file-store';
import { serverName } from '../auth/settings';
import type { CommandContext } from '../cli/command';
import { CliError, EXIT, type ExitCode } from '../cli/exit-codes';
import { json } from '../cli/output';
import { type ResolvedTarget, resolveTarget } from '../cli/target';

export async function run(context: CommandContext): Promise<ExitCode> {
  const resolved = await resolveTarget(context);
  const verb = context.command.path[0] as 'login' | 'logout';
  if (resolved.http === undefined) {
    throw new CliError(
      EXIT.usage,
      `${resolved.label} is a stdio server: it takes credentials from its environment (--env, or "env" in the mcp.json), there is nothing to ${verb === 'login' ? 'log in' : 'log out'} to`,
    );
  }
  const auth = await authorizationFor(context, resolved);
  if (auth === undefined) {
    throw new CliError(
      EXIT.usage,
      `${resolved.label} is given an Authorization header (--header or the mcp.json), which is sent as it is: there is nothing to ${verb === 'login' ? 'log in' : 'log out'} to`,
    );
  }
  return verb === 'login' ? logIn(context, resolved, auth) : logOut(context, resolved, auth);
}

async function logIn(
  context: CommandContext,
  resolved: ResolvedTarget,
  auth: Authorization,
): Promise<ExitCode> {
  const key = await login(context, auth, {
    force: context.values.force === true,
    ...(auth.settings.scope === undefined ? {} : { scope: auth.settings.scope }),
  });
  if (key === undefined) {
    if (context.json) context.print(json({ target: resolved.label, authorization: false }));
    else
      context.note(
        `${serverName(context, resolved)} does not ask for authorization: nothing to do`,
      );
    return EXIT.ok;
  }
  const tokens = (await auth.store.get(key))?.tokens;
  const report = {
    target: resolved.label,
    authorization: true,
    issuer: key.issuer,
    resource: key.resource,
    scope: tokens?.scope ?? null,
    expiresAt: tokens?.expiresAt === undefined ? null : new Date(tokens.expiresAt).toISOString(),
    refreshable: tokens?.refreshToken !== undefined,
    file: auth.store.pathOf(key),
  };
  if (context.json) {
    context.print(json(report));
    return EXIT.ok;
  }
  const { bold } = context.paint;
  context.print(`logged in to ${bold(key.resource)} at ${key.issuer}\n`);
  const rows: [string, string][] = [
    ['scope', report.scope ?? '(as the server chose)'],
    [
      'expires',
      `${report.expiresAt ?? 'not said'}${report.refreshable ? ', refreshed when it does' : ''}`,
    ],
    ['stored in', report.file],
  ];
  for (const [name, value] of rows) context.print(`  ${name.padEnd(9)}  ${value}\n`);
  return EXIT.ok;
}

async function logOut(
  context: CommandContext,
  resolved: ResolvedTarget,
  auth: Authorization,
): Promise<ExitCode> {
  const before = await auth.store.list();
  let unreachable: Error | undefined;
  try {
    // The server says which authorization server and resource its tokens are for.
    await auth.provider().logout(auth.endpoint);
  } catch (error) {
    unreachable = error instanceof Error ? error : new Error(String(error));
    // Without the server: the tokens stored for exactly this endpoint.
    const canonical = canonicalResource(auth.endpoint);
    for (const file of before) if (file.resource === canonical) await auth.store.remove(file);
  }
  const after = new Set((await auth.store.list()).map((file) => file.path));
  const removed = before.filter((file) => !after.has(file.path));
  if (unreachable !== undefined) {
    context.note(
      context.paintErr.yellow(
        `warning: could not ask ${serverName(context, resolved)} where its tokens come from (${unreachable.message}); only tokens stored for exactly ${canonicalResource(auth.endpoint)} were looked for`,
      ),
    );
  }
  if (context.json) {
    context.print(json({ target: resolved.label, removed: removed.map(described) }));
    return EXIT.ok;
  }
  if (removed.length === 0)
    context.print(`no tokens were stored for ${serverName(context, resolved)}\n`);
  for (const file of removed) {
    context.print(`logged out of ${context.paint.bold(file.resource)} at ${file.issuer}\n`);
  }
  return EXIT.ok;
}

function described(file: TokenFile): TokenKey & { file: string } {
  return { issuer: file.issuer, resource: file.resource, file: file.path };
}

/** The RFC 8707 form of an endpoint the client uses when it has no metadata. */
function canonicalResource(endpoint: URL): string {
  return `${endpoint.origin}${endpoint.pathname.replace(/\/$/, '')}`;
}
